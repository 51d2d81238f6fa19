#!/usr/bin/env bash
# Create .venv and install passagent with the agent, sweep, bench and test extras.
# torch is pinned to 2.13.0 first: on this project's CI machines that is a local CPU wheel;
# elsewhere pip picks the platform's default build (CUDA on Linux x86_64). Set
# PASSAGENT_TORCH_SPEC to install something else (e.g. "torch==2.11.0"), or PASSAGENT_TORCH_SPEC=skip
# to keep the torch already in the venv.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "setup: creating .venv"
python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
spec="${PASSAGENT_TORCH_SPEC:-torch==2.13.0}"
if [ "$spec" = "skip" ]; then
    echo "setup: keeping the torch already in .venv (PASSAGENT_TORCH_SPEC=skip)"
elif command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L > /dev/null 2>&1; then
    # On purpose: with a GPU, PyPI's default torch wheel on Linux x86_64 is a CUDA build.
    echo "setup: NVIDIA GPU found ($(nvidia-smi -L | head -n 1)); installing $spec, a CUDA build (several GB)"
    python -m pip install -q "$spec"
else
    echo "setup: no NVIDIA GPU; installing $spec (this project's machines serve a local CPU wheel; elsewhere"
    echo "       pip takes the platform's default build: set PASSAGENT_TORCH_SPEC to choose another)"
    python -m pip install -q "$spec"
fi
# setuptools warns once per shipped benchmark-task folder (they hold model.py files but are data,
# not packages): hundreds of lines. Keep pip's output in a log and show it only on failure.
log=.venv/pip-install.log
echo "setup: installing passagent with its agent, test, sweep and bench extras (a few minutes; log in $log)"
if ! python -m pip install -q -e '.[agent,test,sweep,bench]' > "$log" 2>&1; then
    tail -n 60 "$log"
    echo "pip install failed; full output in $log" >&2
    exit 1
fi
# The report's browser tests use the system Chromium (Debian: chromium). Installed in CI (CI=true)
# or when asked (PASSAGENT_INSTALL_CHROMIUM=1), where apt and root are available; elsewhere the
# tests skip with the reason, and nothing here fails.
want_browser="${PASSAGENT_INSTALL_CHROMIUM:-0}"
[ "${CI:-}" = "true" ] && want_browser=1
if [ "$want_browser" = 1 ] && ! command -v chromium > /dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
    if command -v apt-get > /dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        echo "setup: installing Debian's chromium for the report's browser tests"
        if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } \
                > .venv/apt-chromium.log 2>&1; then
            echo "chromium: apt-get install failed (see .venv/apt-chromium.log); the browser tests will skip"
        fi
    else
        echo "chromium: not installed (needs apt-get as root); the browser tests will skip"
    fi
fi
echo "installed: $(python -c 'import torch, passagent; print("passagent", passagent.__version__, "torch", torch.__version__, f"(CUDA {torch.version.cuda} available)" if torch.cuda.is_available() else "(CPU only)")')"
