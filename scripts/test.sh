#!/usr/bin/env bash
# The test command (README): the whole suite, CPU only; GPU tests skip without CUDA. The 20
# slowest tests are listed at the end, so a suite that grows towards CI's time limit shows why.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python -m pytest tests -q --durations=20 "$@"
