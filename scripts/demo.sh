#!/usr/bin/env bash
# A real session: a shell and vim on pseudo-terminals, driven by waiting on screen state.
# Runs in its own namespace and stops its daemon at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
tw() { ./dist/tuiwright --ns demo "$@"; }
trap 'tw daemon stop >/dev/null 2>&1 || true' EXIT
work=$(mktemp -d)

echo "==> a shell: run a command and wait for its output"
tw spawn --session shell --cols 100 --rows 12 -- bash --norc --noprofile
tw wait --session shell --regex '[$#]$'
tw type --session shell 'echo "hello from $(uname -s), $((6 * 7)) is the answer"'
tw press --session shell Enter --wait-text 'is the answer'
tw snapshot --session shell

echo
echo "==> vim: insert text, save, quit"
tw spawn --session editor --cols 80 --rows 10 -- vim -u NONE -N "$work/demo.txt"
tw wait --session editor --alt-screen on
tw press --session editor i --wait-text '-- INSERT --'
tw type --session editor 'Written by tuiwright through a real PTY.'
tw press --session editor Escape --wait-text '-- INSERT --' --gone
tw snapshot --session editor --plain
tw type --session editor ':wq'
tw press --session editor Enter --wait-exit
echo "file on disk: $(cat "$work/demo.txt")"

echo
tw list
rm -rf "$work"
