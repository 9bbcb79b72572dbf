#!/usr/bin/env bash
# Installs what building and testing tuiwright need, skipping whatever is already there:
# Bun 1.4.5 (from npm), the npm dependencies, and the Debian programs the tests drive.
set -euo pipefail
cd "$(dirname "$0")/.."

BUN_VERSION=1.4.5
# libnss3 and libasound2: what the Carbonyl binary links against (Chromium pulls them in too).
# curl, groff-base, util-linux (setsid): the installer, man page and cron tests; jq: the AWI-TTY CLI façade script.
# mc … bc: the untuned programs of the truth corpus (tests/truth/record.ts re-records it with them).
DEBIAN_PACKAGES=(bash vim less htop python3 tmux zsh fish hyperfine procps man-db git asciinema chromium libnss3 libasound2 curl groff-base util-linux jq
  mc tig nano fzf dialog whiptail w3m lynx ncdu screen gdb sqlite3 nodejs ptpython python3-prompt-toolkit bc)

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

# Carbonyl (browser sessions): the binary runs it from $CARBONYL, PATH or its own data directory
# ($XDG_DATA_HOME/tuiwright/carbonyl, never the checkout: see lib/browser/find-carbonyl.ts), so it
# goes there — the checkout's copy (an optional npm dependency) hard-linked when there is one,
# else from npm. Directories are the user's own, 0700.
CARBONYL_PACKAGE=@fathyb/carbonyl-linux-amd64
CARBONYL_HOME=${XDG_DATA_HOME:-$HOME/.local/share}/tuiwright/carbonyl
if [ "$(uname -m)" = x86_64 ] && [ ! -x "$CARBONYL_HOME/node_modules/$CARBONYL_PACKAGE/build/carbonyl" ]; then
  echo "==> installing Carbonyl into $CARBONYL_HOME (where tuiwright looks for it)"
  (umask 077 && mkdir -p "$CARBONYL_HOME/node_modules/@fathyb")
  if [ -x "node_modules/$CARBONYL_PACKAGE/build/carbonyl" ]; then
    cp -al "node_modules/$CARBONYL_PACKAGE" "$CARBONYL_HOME/node_modules/@fathyb/" 2>/dev/null ||
      cp -a "node_modules/$CARBONYL_PACKAGE" "$CARBONYL_HOME/node_modules/@fathyb/"
  else
    version=$(node -p "require('./package.json').optionalDependencies['$CARBONYL_PACKAGE']")
    npm install --no-fund --no-audit --prefix "$CARBONYL_HOME" "$CARBONYL_PACKAGE@$version" >/dev/null
  fi
fi

# The AI coding CLIs the ai-clis tests drive (pinned; about 50 s from npm on a fresh machine).
bash scripts/install-ai-clis.sh
