#!/usr/bin/env bash
# Written from the AWI-TTY document's CLI section alone (9A examples, 9D usage patterns, 9E test
# strategy, 18 appendix), with the site's URLs for Hacker News: $1 is the site's base URL.
# `awi-tty` comes from PATH and the socket from $AWI_SOCK, as the document says.
set -u
BASE=$1
fail() { echo "FAIL: $*"; exit 1; }

# 9E socket discovery: without $AWI_SOCK the default paths are tried.
(unset AWI_SOCK; awi-tty ping) >/dev/null || fail "ping without AWI_SOCK"

# 9D Pattern 1: Navigation + Extraction
awi-tty navigate "$BASE" >/dev/null || fail "navigate"
content=$(awi-tty snapshot --plain | head -20)
echo "$content" | grep -q "Second site start" || fail "pattern 1: $content"

# 9D Pattern 2: Interactive Navigation
awi-tty navigate "${BASE}form.html" >/dev/null
awi-tty type-text "carbonyl browser" >/dev/null
awi-tty send-key Enter >/dev/null
awi-tty wait-for-frame-quiescence 500 >/dev/null
results=$(awi-tty snapshot --plain)
echo "$results" | grep -q "query carbonyl browser" || fail "pattern 2: $results"

# 9D Pattern 3: State Verification
if awi-tty get-nav-state --json | jq -e '.can_go_back == true' >/dev/null; then
  echo "can go back"
else
  fail "pattern 3"
fi

# 9E output modes, exit codes, piping
diff <(awi-tty get-title --json | jq -r .title) <(awi-tty get-title --plain) || fail "output modes"
awi-tty navigate "invalid://url" >/dev/null 2>&1; test $? -eq 65 || fail "exit code for invalid://url"
awi-tty snapshot --plain | grep -q "Thanks for the order" || fail "piping"

# 9A and 18: examples
awi-tty snapshot --format text --plain | sed -n '1,40p' >/dev/null || fail "sed example"
awi-tty navigate "$BASE" >/dev/null
awi-tty send-key Tab && awi-tty send-key Enter && awi-tty scroll 5 && awi-tty snapshot --format text --plain >/dev/null || fail "chain"
awi-tty get-title
echo "done"
