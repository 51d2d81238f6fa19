#!/usr/bin/env bash
# The test command (README): the linter and the whole suite, CPU only; GPU tests skip without CUDA. The 20
# slowest tests are listed at the end, so a suite that grows towards CI's time limit shows why.
set -euo pipefail
cd "$(dirname "$0")/.."
# The whole suite starts with the linter (pyproject.toml's [tool.ruff]: a second or less).
if [ $# -eq 0 ]; then
    ruff check . || { echo "ruff found the problems above; fix them (ruff check --fix . fixes some)" >&2; exit 1; }
    mypy || { echo "mypy found the type errors above in the harness (tools/; configured in pyproject.toml)" >&2; exit 1; }
fi
exec python -m pytest tests -q --durations=20 "$@"
