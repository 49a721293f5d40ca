#!/usr/bin/env bash
# The Python bridge under PyTorch 2.14, end to end (tests/python/test_torch2_end_to_end.py): sets up
# the Debian sid chroot of ../shared/tools/torch2-env.sh (needs root and Debian's mirror; about 6
# minutes the first time), runs the test with build/app/remat-explorer (builds nothing), and
# releases the chroot's mounts at the end.  Prints "SKIPPED: <reason>" and exits 0 only when the
# chroot cannot be set up; when the test fails it exits 1.
# REMAT_KEEP_TORCH2_MOUNTS=1 leaves the mounts in place (while others use the same chroot);
# REMAT_EXPLORER and REMAT_SHARED_DIR override the binary and the shared folder.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
shared=${REMAT_SHARED_DIR:-../shared}
env_sh="$shared/tools/torch2-env.sh"
exe=${REMAT_EXPLORER:-build/app/remat-explorer}

[ -x "$exe" ] || { echo "FAIL: torch 2.14 end-to-end: $exe is not an executable (build remat-explorer first)"; exit 1; }
if [ ! -x "$env_sh" ]; then
  echo "SKIPPED: torch 2.14 end-to-end: $env_sh not found (no shared folder beside the checkout)"; exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "SKIPPED: torch 2.14 end-to-end: setting up the chroot needs root"; exit 0
fi
if [ "${REMAT_KEEP_TORCH2_MOUNTS:-0}" != 1 ]; then
  trap '"$env_sh" release || echo "torch2-end-to-end: could not release the chroot mounts" >&2' EXIT
fi

log=$(mktemp)
if ! "$env_sh" setup >"$log" 2>&1; then
  reason=$(grep -v '^$' "$log" | tail -n 2 | tr '\n' ' ')
  echo "SKIPPED: torch 2.14 end-to-end: the chroot cannot be set up now: $reason"
  rm -f "$log"; exit 0
fi
echo "torch 2.14 end-to-end: $(tail -n 1 "$log")"
rm -f "$log"

REMAT_EXPLORER=$(realpath "$exe") TORCH2_ENV=$(realpath "$env_sh") python3 tests/python/test_torch2_end_to_end.py
status=$?
echo "torch 2.14 end-to-end: $([ $status = 0 ] && echo passed || echo FAILED) in $(( $(date +%s) - start )) s"
exit $status
