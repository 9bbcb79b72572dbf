#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds the binary the end-to-end tests
# drive, runs every test, checks that no daemon was left behind, and ends with the line
# `N passed, N failed`. `bash scripts/test.sh FILES…` runs only those (paths or path parts).
#
# Test files run side by side: most tests wait on real programs, not on the CPU, so several
# `bun test` worker processes (bun's --parallel; 2 per core, TUIWRIGHT_TEST_JOBS=N to choose,
# 1 for one at a time) take files from one queue, the slowest first (tests/timings.json, the
# per-file durations; TUIWRIGHT_TEST_UPDATE_TIMINGS=1 rewrites it from this run). Each file has
# its own World (namespace, socket and state directories), so files do not see each other.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh || exit 1
echo "==> type check"
bun run check || exit 1
echo "==> layers (scripts/check-layers.ts)"
bun scripts/check-layers.ts || exit 1
echo "==> file writes (scripts/check-writes.ts)"
bun scripts/check-writes.ts || exit 1
echo "==> building dist/tuiwright"
bun run build || exit 1

cores=$(nproc 2>/dev/null || echo 2)
jobs=${TUIWRIGHT_TEST_JOBS:-$(( 2 * cores ))}
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "TUIWRIGHT_TEST_JOBS must be a whole number of at least 1, got '$jobs'" >&2
  exit 64
fi
timings=(--timings=tests/timings.json)
[ "${TUIWRIGHT_TEST_UPDATE_TIMINGS:-}" = 1 ] && timings+=(--update-timings)

log=$(mktemp)
# Every daemon the tests start inherits this mark, so the check below counts only ours — not
# the user's own daemon or another checkout's test run.
export TUIWRIGHT_TEST_RUN="run-$$-$(date +%s%N)"
echo "==> bun test: $jobs test files at a time ($cores cores)"
# Per-test timeout: tests wait on screen state, and on a loaded 2-core machine a real program can
# take longer than bun's default 5 s to get there; a hung test still fails within a minute.
# With --parallel, bun prints each file's whole output (failures in full) as one block.
bun test --timeout 60000 --parallel="$jobs" "${timings[@]}" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# bun's totals in a log: `total LOG pass|fail`.
total() { grep -Eo "^ *[0-9]+ $2\$" "$1" | grep -Eo '[0-9]+' | tail -1; }
passed=$(total "$log" pass)
failed=$(total "$log" fail)
# bun prints each file's lines under a `FILE:` header as they come, so the files interleave. The
# awk rules that set `file` to the file a line belongs to (empty in the final summary; `order`
# lists the files as they first appear), shared by the scans of the log below:
FILE_OF_LINE='
  /^[0-9]+ tests? failed:$/ || /^ [0-9]+ pass$/ { file = ""; next }
  /^[^ ()#].*\.test\.[jt]sx?:$/ { file = substr($0, 1, length($0) - 1); if (!(file in seen)) { seen[file] = 1; order[++n] = file }; next }'
# Each failing file's lines (a failed test or an error outside a test) as one block.
failing_output=$(awk "$FILE_OF_LINE"'
  file == "" { next }
  { out[file] = out[file] $0 "\n" }
  /^\(fail\)|^# Unhandled error/ { failing[file] = 1 }
  END { for (i = 1; i <= n; i++) if (order[i] in failing) printf "==> %s (its whole output)\n%s\n", order[i], out[order[i]] }' "$log")
failing=$(printf '%s\n' "$failing_output" | sed -n 's/^==> \(.*\) (its whole output)$/\1/p')

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
if [ -n "$failing" ]; then
  echo
  echo "$failing_output"
  echo "failing files:"
  echo "$failing" | sed 's/^/  /'
fi
# A run that fails with no failed test counted (a file that did not load, bun itself) still fails.
if [ "$status" -ne 0 ] && [ "${failed:-0}" -eq 0 ]; then failed=1; fi
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
