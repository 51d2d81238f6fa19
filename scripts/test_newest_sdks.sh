#!/usr/bin/env bash
# The provider tests against the newest openai and anthropic releases on PyPI, installed into a
# throwaway folder put first on PYTHONPATH (the project's environment is left unchanged). Run by
# `.ci/run --newest-sdks`; a failure here means a new SDK release breaks a provider before a
# user meets it (then fix the provider or lower the upper bound in pyproject.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
target="$(mktemp -d)/newest-sdks"
trap 'rm -rf "$(dirname "$target")"' EXIT
python -m pip install --quiet --disable-pip-version-check --target "$target" --upgrade openai anthropic
export PYTHONPATH="$target${PYTHONPATH:+:$PYTHONPATH}"
python -c 'import openai, anthropic; print(f"newest SDKs: openai {openai.__version__}, anthropic {anthropic.__version__}")'
python -m pytest -q -p no:cacheprovider tests/test_providers.py tests/test_provider_rules.py "$@"
