#!/usr/bin/env bash
# Builds and runs the test suite under sanitizers, with the presets of CMakePresets.json:
#   asan    (default) AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer: the whole
#           project into build-asan/ and the whole suite (the Python tests run our instrumented
#           program from an uninstrumented python3; no LD_PRELOAD is needed);
#   tsan    ThreadSanitizer into build-tsan/: only the tests labelled `threads` (those that drive
#           our worker threads) and what they need;
#   torch2  after asan: the PyTorch 2.14 end-to-end test (scripts/torch2-end-to-end.sh, which
#           releases the chroot's mounts at the end unless REMAT_KEEP_TORCH2_MOUNTS=1) with
#           build-asan's program.
# Reports from system libraries are suppressed in tests/sanitizers/ (each line says why).
# Prints how long each step took; exits non-zero when a build or a test fails.
# Usage: scripts/sanitizer-suite.sh [asan] [tsan] [torch2]      (JOBS=2 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(asan)

seconds_since() { echo $(( $(date +%s) - $1 )); }
status=0
overall=$(date +%s)
for step in "${steps[@]}"; do
  start=$(date +%s)
  case $step in
    asan | tsan)
      target=all
      [ "$step" = tsan ] && target=remat_thread_tests
      cmake --preset "$step" >/dev/null
      cmake --build --preset "$step" -j"$jobs" --target "$target"
      echo "== $step: configured and built in $(seconds_since "$start") s"
      built=$(date +%s)
      # The test preset sets the sanitizer options (and for tsan selects the `threads` label).
      ctest --preset "$step" -j"$jobs" || status=1
      echo "== $step: tests ran in $(seconds_since "$built") s"
      ;;
    torch2)
      # The asan test preset's options, for a run outside ctest.
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      LSAN_OPTIONS=suppressions=$PWD/tests/sanitizers/lsan.supp \
      REMAT_EXPLORER=build-asan/app/remat-explorer bash scripts/torch2-end-to-end.sh || status=1
      ;;
    *) echo "sanitizer-suite: unknown step '$step' (asan, tsan or torch2)" >&2; exit 2 ;;
  esac
  echo "== $step: $(seconds_since "$start") s"
done
echo "== sanitizer suite (${steps[*]}): $([ $status = 0 ] && echo passed || echo FAILED) in $(seconds_since "$overall") s"
exit $status
