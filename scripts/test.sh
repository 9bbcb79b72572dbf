#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds the binary the end-to-end tests
# drive, runs every test, checks that no daemon was left behind, and ends with the line
# `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh || exit 1
echo "==> type check"
bun run check || exit 1
echo "==> building dist/tuiwright"
bun run build || exit 1

log=$(mktemp)
# Every daemon the tests start inherits this mark, so the check below counts only ours — not
# the user's own daemon or another checkout's test run.
export TUIWRIGHT_TEST_RUN="run-$$-$(date +%s%N)"
# Per-test timeout: tests wait on screen state, and on a loaded 2-core machine a real program can
# take longer than bun's default 5 s to get there; a hung test still fails within a minute.
bun test --timeout 60000 "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=$(grep -Eo '^ *[0-9]+ pass$' "$log" | grep -Eo '[0-9]+' | tail -1)
failed=$(grep -Eo '^ *[0-9]+ fail$' "$log" | grep -Eo '[0-9]+' | tail -1)
rm -f "$log"

leftover=""
for pid in $(pgrep -f 'tuiwright daemon run' || true); do
  if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "TUIWRIGHT_TEST_RUN=$TUIWRIGHT_TEST_RUN"; then
    leftover="$leftover $pid"
  fi
done
leftover=${leftover# }
if [ -n "$leftover" ]; then
  echo "left behind: daemon process(es) $leftover"
  ps -o pid,args -p $leftover || true
  failed=$(( ${failed:-0} + 1 ))
  status=1
fi
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
