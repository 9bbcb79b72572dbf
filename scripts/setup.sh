#!/usr/bin/env bash
# One command from a fresh machine to a running demo: installs what is missing, builds
# dist/tuiwright, and drives real programs with it (scripts/demo.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
echo "==> building dist/tuiwright"
bun run build
bash scripts/demo.sh
