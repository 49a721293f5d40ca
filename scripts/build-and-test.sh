#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole test suite, then the PyTorch 2.14
# end-to-end test, the suite under ASan and UBSan, the worker-thread tests under TSan and a minute
# of each fuzzer. Prints each step's time.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
step() { echo "== build-and-test: $1 done at $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s"; }
bash scripts/install-deps.sh
step "dependencies"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j2
step "build"
ctest --test-dir build --output-on-failure -j2
step "tests"
# PyTorch 2.14 end to end in a chroot (SKIPPED with the reason when it cannot be set up).
bash scripts/torch2-end-to-end.sh
step "PyTorch 2.14 end to end"
# The whole command against PyTorch 1.13's min-cut, both timed here (about 2 minutes): it fails
# only if the saved sets differ; the ratio is printed, since a shared machine moves it.
/usr/bin/python3 tests/bench/whole_command_vs_pytorch.py --rounds 2 -o build/gpt_n48.json
step "whole command against PyTorch 1.13"
# The whole suite under ASan + UBSan + LSan (14 to 25 minutes from scratch on 2 cores), then the
# tests that drive our worker threads under ThreadSanitizer (7 to 11 minutes: only what they need).
bash scripts/sanitizer-suite.sh asan tsan
step "sanitizers"
# Every reader's libFuzzer target for a minute on its seeds (clang 14, ASan, UBSan), so that a
# regression shows; a crash fails the run with the reproducer's path.
bash scripts/run-fuzzers.sh 60
step "fuzzers"
