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

# Carbonyl (Chromium in a terminal) now and then stops drawing a page's text, or any new frame, on
# a loaded machine (README.md, "The two commands"). A browser file that failed beside the
# others runs once more on its own; both runs are printed, and the second one's counts replace the
# first's. Any other file, or a browser file that fails again, fails the run.
CARBONYL_FILES="tests/e2e/browser.test.ts tests/e2e/browser-awi.test.ts tests/e2e/awi-conformance.test.ts"
retried=""
for file in $failing; do
  case " $CARBONYL_FILES " in *" $file "*) ;; *) continue ;; esac
  counts=$(awk -v want="$file" "$FILE_OF_LINE"'
    file == want && /^\(pass\)/ { p++ }
    file == want && /^\(fail\)/ { f++ }
    END { print p + 0, f + 0 }' "$log")
  echo
  echo "==> $file failed beside the other files (${counts#* } failed); running it once more on its own"
  again=$(mktemp)
  bun test --timeout 60000 "$file" 2>&1 | tee "$again"
  again_status=${PIPESTATUS[0]}
  again_passed=$(total "$again" pass)
  again_failed=$(total "$again" fail)
  rm -f "$again"
  passed=$(( ${passed:-0} - ${counts% *} + ${again_passed:-0} ))
  failed=$(( ${failed:-0} - ${counts#* } + ${again_failed:-0} ))
  if [ "$again_status" -eq 0 ]; then retried="$retried $file"; fi
done
if [ -n "$retried" ]; then
  # Passed on its own: no longer a failing file.
  for file in $retried; do failing=$(printf '%s\n' "$failing" | grep -vx "$file"); done
  failing_output=$(printf '%s\n' "$failing_output" | awk -v done=" $retried " '
    /^==> .* \(its whole output\)$/ { f = $2; skip = index(done, " " f " ") > 0 }
    !skip')
  echo "passed when run again on its own (first failures above):$retried"
  if [ -z "$failing" ] && [ "${failed:-0}" -eq 0 ]; then status=0; fi
fi
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
