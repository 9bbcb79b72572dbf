#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds the binary the end-to-end tests
# drive, runs every test, checks that no daemon was left behind, and ends with the line
# `N passed, N failed, N flaky` (scripts/test-runner.ts: a test that passed only when its file
# ran again is flaky, never passed; more than TUIWRIGHT_TEST_FLAKY_BUDGET=5 of them fail the
# run). `bash scripts/test.sh FILES…` runs only those (paths or path parts); `--group core` or
# `--group engines` one of the two groups CI runs as separate jobs (scripts/test-groups.ts).
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
echo "==> lint (oxlint, .oxlintrc.json)"
bunx oxlint --quiet lib entries workers scripts tests bench main.ts || exit 1
echo "==> building dist/tuiwright"
bun run build || exit 1

# The test files, each failing one again on its own; ends with `N passed, N failed, N flaky`.
exec bun scripts/test-runner.ts "$@"
