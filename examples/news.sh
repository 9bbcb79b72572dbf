#!/usr/bin/env bash
# The AWI-TTY user story with tuiwright and Carbonyl: open a news list, read the top two
# stories, open the first one's comments, scroll, read them, go back. No sleeps and no waits:
# every step returns once the browser's engine has the new page and the screen shows it.
#   examples/news.sh [URL]   (default: the test site, served by `python3 -m http.server -d tests/testdata/site 8765`)
set -euo pipefail
url=${1:-http://127.0.0.1:8765/}
tw() { "${TUIWRIGHT:-tuiwright}" "$@"; }

tw browse --session news "$url" >/dev/null
trap 'tw kill --session news >/dev/null' EXIT
export TUIWRIGHT_SESSION=news

echo "== top two stories"
tw snapshot --plain | grep -E '^ +[0-9]+\. ' | head -2 | sed 's/^ *//'

echo "== comments of the first"
ref=$(tw snapshot --format outline --plain --select '@carbonyl.page link[name~=/comments?$/]' | head -1 | cut -d' ' -f1)
tw click "$ref" >/dev/null   # a link: returns with the new page loaded and drawn
tw scroll 5 >/dev/null
tw snapshot --plain | grep -E '^ *Comment ' | head -5

tw back >/dev/null
echo "== back at $(tw get url)"
