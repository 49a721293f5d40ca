#!/usr/bin/env bash
# Installs what is missing, builds the app and opens it on the bundled sample graph
# (or on the graph given as the first argument).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j2 --target remat-explorer
exec ./build/app/remat-explorer "$@"
