#!/usr/bin/env bash
# Installs the AI coding CLIs the ai-clis tests drive (pinned versions) from npm into one tools
# directory: $TUIWRIGHT_AI_CLIS (default ${XDG_DATA_HOME:-$HOME/.local/share}/tuiwright/ai-clis).
# Their executables end up in <dir>/node_modules/.bin. Already-installed pins are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${TUIWRIGHT_AI_CLIS:-${XDG_DATA_HOME:-$HOME/.local/share}/tuiwright/ai-clis}
# Versions tested (adapters/<cli>.toml records the same numbers).
PACKAGES=(
  "@mariozechner/pi-coding-agent@0.73.1"
  "@openai/codex@0.169.0"
  "@anthropic-ai/claude-code@2.1.330"
  "opencode-ai@1.18.33"
  "@google/gemini-cli@0.61.0"
)
mkdir -p "$DIR"
[ -f "$DIR/package.json" ] || echo '{"name":"tuiwright-ai-clis","private":true}' >"$DIR/package.json"
want=()
for spec in "${PACKAGES[@]}"; do
  name=${spec%@*}; version=${spec##*@}
  have=$(node -p "try{require('$DIR/node_modules/$name/package.json').version}catch{''}" 2>/dev/null || true)
  [ "$have" = "$version" ] || want+=("$spec")
done
if [ ${#want[@]} -gt 0 ]; then
  echo "==> installing AI CLIs into $DIR: ${want[*]}"
  start=$(date +%s)
  npm install --no-fund --no-audit --loglevel=error --prefix "$DIR" "${want[@]}" >/dev/null
  echo "==> AI CLIs installed in $(( $(date +%s) - start )) s"
fi
