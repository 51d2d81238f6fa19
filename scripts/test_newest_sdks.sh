#!/usr/bin/env bash
# The provider tests against the newest openai and anthropic releases on PyPI, in a throwaway
# virtualenv layered on the project's (so nothing else changes). Run by `.ci/run --newest-sdks`;
# a failure here means a new SDK release breaks a provider before a user meets it (then fix the
# provider or lower the upper bound in pyproject.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(mktemp -d)/newest-sdks"
python -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade openai anthropic
"$venv/bin/python" -c 'import openai, anthropic; print(f"openai {openai.__version__}, anthropic {anthropic.__version__}")'
exec "$venv/bin/python" -m pytest -q tests/test_providers.py tests/test_provider_rules.py "$@"
