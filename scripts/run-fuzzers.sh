#!/usr/bin/env bash
# Builds the libFuzzer targets (the "fuzz" preset: clang 14, ASan, UBSan, in build-fuzz/) and runs
# each for SECONDS (default 60) on a corpus seeded from samples/, tests/data and ../shared/oracle.
# A crash stops with the reproducer's path (build-fuzz/crashes/<target>/); add it to tests/data/bad/.
# -timeout is wall time: 60 s, so that a niced run on a busy machine does not report starvation as a hang.
# Usage: scripts/run-fuzzers.sh [SECONDS] [TARGET...]     (one target at a time: fuzzing is CPU-bound)
#        scripts/run-fuzzers.sh --ledger                  (seconds and executions so far, per target)
# Every run appends its time and executions to build-fuzz/fuzz-ledger.tsv.
# The presets build with -fno-sanitize=pointer-overflow: RapidJSON's Stack::Reserve adds to a null
# pointer on its first push (reported at once by UBSan, harmless, and not our code).
set -euo pipefail
cd "$(dirname "$0")/.."
ledger=build-fuzz/fuzz-ledger.tsv
if [ "${1:-}" = --ledger ]; then
  awk -F'\t' '{ s[$2] += $3; e[$2] += $4; c[$2] += $5 }
    END { for (t in s) printf "%-22s %6.2f CPU hours %13d executions %3d crashes\n", t, s[t] / 3600, e[t], c[t] }' "$ledger" | sort
  exit 0
fi
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_joint_graph fuzz_printed_graph fuzz_torch_trace fuzz_plan fuzz_device_profiles fuzz_project_file fuzz_layout_cache)

if [ -z "${REMAT_FUZZ_NO_BUILD:-}" ]; then # set by loops that run the targets built once
  cmake --preset fuzz >/dev/null
  cmake --build build-fuzz -j2 --target "${targets[@]}"
fi

shared=${REMAT_SHARED_DIR:-../shared}
seed() { # seed <target>: the files that reader is meant to read
  case $1 in
    fuzz_joint_graph) ls samples/*.json tests/data/*/*.json "$shared"/oracle/*.json 2>/dev/null | grep -v -e expectations -e MANIFEST | grep -v '/bad/plan_\|/bad/devices_' ;;
    fuzz_printed_graph) ls tests/data/printed/*.txt tests/data/printed/*/* tests/data/bad/printed_* tests/data/bad/tlparse_* ;;
    fuzz_torch_trace) ls tests/data/torch_trace/*.log tests/data/bad/tlparse_* ;;
    fuzz_project_file) ls tests/data/bad/project_* tests/fuzz/seeds/*.remat ;;
    fuzz_layout_cache) ls tests/fuzz/seeds/layout_* ;;
    fuzz_plan) ls tests/data/bad/plan_* build/tests/hardening/*.json 2>/dev/null || true ;;
    fuzz_device_profiles) ls resources/device_profiles.json tests/data/bad/devices_* ;;
  esac
}

for target in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$target
  crashes=build-fuzz/crashes/$target
  mkdir -p "$corpus" "$crashes"
  # Seeds above 1 MB only slow the fuzzer down; the small ones cover the same code.
  if [ "$target" = fuzz_layout_cache ]; then # real layouts the app cached, as the target reads them
    cache=${XDG_CACHE_HOME:-$HOME/.cache}/RematExplorer
    # None on a machine where the app has not run yet (find fails there; pipefail would end the script).
    [ -d "$cache" ] && find "$cache" -name '*.layout' -print0 | xargs -0 -r python3 tests/fuzz/make_layout_seeds.py "$corpus"
  fi
  seed "$target" | while read -r f; do [ "$(stat -c %s "$f")" -le 1048576 ] && cp -n "$f" "$corpus/" || true; done
  echo "== $target: ${seconds}s on $(ls "$corpus" | wc -l) corpus files"
  log=build-fuzz/$target.last.log
  start=$SECONDS
  nice -n 19 /usr/bin/time -f '%U %S' -o "$log.cpu" build-fuzz/tests/fuzz/$target "$corpus" -max_total_time="$seconds" -max_len=1048576 -timeout=60 \
    -rss_limit_mb=4096 -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1 || true
  grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY)|Test unit written' "$log" || true
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  found=$(grep -c 'Test unit written to .*/\(crash\|leak\|timeout\|oom\)-' "$log" || true)
  cpu=$(awk '/^[0-9.]+ [0-9.]+$/ { print $1 + $2 }' "$log.cpu")
  # date, target, CPU seconds, executions, crashes, wall seconds
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "${cpu:-0}" "${executions:-0}" "$found" \
    "$((SECONDS - start))" >>"$ledger"
  # slow-unit-* files are inputs over 10 s (a niced run on a busy machine): kept, not failures.
  if ls "$crashes"/crash-* "$crashes"/leak-* "$crashes"/timeout-* "$crashes"/oom-* >/dev/null 2>&1; then
    echo "$target: crashes in $crashes:" && ls "$crashes"
    exit 1
  fi
done
