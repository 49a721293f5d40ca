#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j2
ctest --test-dir build --output-on-failure -j2
# PyTorch 2.14 end to end in a chroot (SKIPPED with the reason when it cannot be set up).
bash scripts/torch2-end-to-end.sh
# Every reader's libFuzzer target for a minute on its seeds (clang 14, ASan, UBSan), so that a
# regression shows; a crash fails the run with the reproducer's path.
bash scripts/run-fuzzers.sh 60
