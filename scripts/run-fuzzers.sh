#!/usr/bin/env bash
# Builds the libFuzzer targets (the "fuzz" preset: clang 14, ASan, UBSan, in build-fuzz/) and runs
# each for SECONDS (default 60) on a corpus seeded from samples/, tests/data and ../shared/oracle.
# A crash stops with the reproducer's path (build-fuzz/crashes/<target>/); add it to tests/data/bad/.
# Usage: scripts/run-fuzzers.sh [SECONDS] [TARGET...]     (one target at a time: fuzzing is CPU-bound)
# The presets build with -fno-sanitize=pointer-overflow: RapidJSON's Stack::Reserve adds to a null
# pointer on its first push (reported at once by UBSan, harmless, and not our code).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_joint_graph fuzz_printed_graph fuzz_plan fuzz_device_profiles)

cmake --preset fuzz >/dev/null
cmake --build build-fuzz -j2 --target "${targets[@]}"

shared=${REMAT_SHARED_DIR:-../shared}
seed() { # seed <target>: the files that reader is meant to read
  case $1 in
    fuzz_joint_graph) ls samples/*.json tests/data/*/*.json "$shared"/oracle/*.json 2>/dev/null | grep -v -e expectations -e MANIFEST | grep -v '/bad/plan_\|/bad/devices_' ;;
    fuzz_printed_graph) ls tests/data/printed/*.txt tests/data/printed/*/* tests/data/bad/printed_* tests/data/bad/tlparse_* ;;
    fuzz_plan) ls tests/data/bad/plan_* build/tests/hardening/*.json 2>/dev/null || true ;;
    fuzz_device_profiles) ls resources/device_profiles.json tests/data/bad/devices_* ;;
  esac
}

for target in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$target
  crashes=build-fuzz/crashes/$target
  mkdir -p "$corpus" "$crashes"
  # Seeds above 1 MB only slow the fuzzer down; the small ones cover the same code.
  seed "$target" | while read -r f; do [ "$(stat -c %s "$f")" -le 1048576 ] && cp -n "$f" "$corpus/" || true; done
  echo "== $target: ${seconds}s on $(ls "$corpus" | wc -l) corpus files"
  nice -n 15 build-fuzz/tests/fuzz/$target "$corpus" -max_total_time="$seconds" -max_len=1048576 -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix="$crashes/" -print_final_stats=1 2>&1 \
    | grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' || true
  if ls "$crashes"/* >/dev/null 2>&1; then
    echo "$target: crashes in $crashes:" && ls "$crashes"
    exit 1
  fi
done
