#!/usr/bin/env bash
# The shell race tests (tests/e2e/shell-safety.test.ts, and the README headline in
# tests/e2e/cli-input.test.ts) with many rounds while two `yes`
# processes load the cores, as the issue asks: `bun run soak:shell` (ROUNDS=50 by default).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${ROUNDS:-50}"
yes > /dev/null & LOAD1=$!
yes > /dev/null & LOAD2=$!
trap 'kill "$LOAD1" "$LOAD2" 2>/dev/null || true' EXIT
bun scripts/build.ts
TUIWRIGHT_RACE_LOOPS="$ROUNDS" bun test --timeout 900000 tests/e2e/shell-safety.test.ts tests/e2e/cli-input.test.ts
