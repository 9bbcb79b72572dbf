#!/usr/bin/env bash
# A real session: a shell, vim and a web page in the Carbonyl terminal browser on
# pseudo-terminals, driven by waiting on screen state.
# Runs in its own namespace and stops its daemon at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
tw() { ./dist/tuiwright --ns demo "$@"; }
server=""
trap 'tw daemon stop >/dev/null 2>&1 || true; [ -z "$server" ] || kill "$server" 2>/dev/null || true' EXIT
work=$(mktemp -d)
# Carbonyl comes from where the binary looks for it ($CARBONYL, PATH, or the data directory that
# scripts/ensure-deps.sh installs it into), exactly as for a user's own `browse`.

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
echo "==> a web page: the AWI-TTY user story (examples/news.sh) against the test site"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory tests/testdata/site "$port" >/dev/null 2>&1 &
server=$!
# The server is up once it answers (bounded: 100 tries).
for _ in $(seq 100); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break; done
TUIWRIGHT="$PWD/dist/tuiwright" TUIWRIGHT_NS=demo bash examples/news.sh "http://127.0.0.1:$port/"

echo
tw list
rm -rf "$work"
