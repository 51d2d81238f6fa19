#!/usr/bin/env bash
# The test command (README): the whole suite, CPU only; GPU tests skip without CUDA.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python -m pytest tests -q "$@"
