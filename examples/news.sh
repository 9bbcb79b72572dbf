#!/usr/bin/env bash
# The AWI-TTY user story with tuiwright and Carbonyl: open a news list, read the top two
# stories, open the first one's comments, scroll, read them, go back. No sleeps: every step
# returns when the page has settled, or waits on what the screen shows.
#   examples/news.sh [URL]   (default: the test site, served by `python3 -m http.server -d tests/testdata/site 8765`)
set -euo pipefail
url=${1:-http://127.0.0.1:8765/}
tw() { "${TUIWRIGHT:-tuiwright}" "$@"; }

tw browse --session news "$url" >/dev/null
trap 'tw kill --session news >/dev/null' EXIT
export TUIWRIGHT_SESSION=news
tw wait --ref "@carbonyl.page link" --timeout 30000 >/dev/null  # the list has drawn
tw wait --settled 300 >/dev/null

echo "== top two stories"
tw snapshot --plain | grep -E '^ +[0-9]+\. ' | head -2 | sed 's/^ *//'

echo "== comments of the first"
ref=$(tw snapshot --format outline --plain --select '@carbonyl.page link[name~=/comments?$/]' | head -1 | cut -d' ' -f1)
tw click "$ref" --ref @carbonyl.url --ref-value '/comment|item/' --timeout 30000 >/dev/null
tw wait --settled 300 >/dev/null
tw scroll 5 >/dev/null
tw snapshot --plain | grep -E '^ *Comment ' | head -5

tw back >/dev/null
echo "== back at $(tw get url)"
