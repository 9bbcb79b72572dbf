#!/usr/bin/env bash
# Installs what building and testing tuiwright need, skipping whatever is already there:
# Bun 1.4.5 (from npm), the npm dependencies, and the Debian programs the tests drive.
set -euo pipefail
cd "$(dirname "$0")/.."

BUN_VERSION=1.4.5
DEBIAN_PACKAGES=(bash vim less htop python3 tmux zsh fish hyperfine procps man-db git asciinema chromium)

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v bun >/dev/null 2>&1 || [ "$(bun --version)" != "$BUN_VERSION" ]; then
  echo "==> installing bun $BUN_VERSION from npm"
  as_root npm install -g --no-fund --no-audit "bun@$BUN_VERSION" >/dev/null
fi

missing=()
for pkg in "${DEBIAN_PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "==> installing Debian packages: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "==> bun install"
bun install --frozen-lockfile >/dev/null
