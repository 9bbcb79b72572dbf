#!/usr/bin/env python3
"""An outside AWI-TTY client, written from the Carbonyl agent-socket document alone: only its
method names, params, result fields and error codes. It drives a live browser session over the
socket and prints one JSON line per check: {"check": name, "ok": bool, "detail": ...}.

usage: awi_tty_client.py SOCKET BASE_URL [--blank | --leased]

BASE_URL serves tests/testdata/site2 (index, form.html, long.html, thanks.html).
--blank: the session is a browser that has drawn nothing yet (-32012 snapshot-unavailable).
--leased: another client holds the session's write lease (-32013 rate-limited/busy).
"""
import json
import socket
import sys

SOCK, BASE = sys.argv[1], sys.argv[2]
MODE = sys.argv[3] if len(sys.argv) > 3 else "full"

s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(SOCK)
f = s.makefile("rw", encoding="utf-8")
next_id = 0
events = []


def send_line(line):
    f.write(line + "\n")
    f.flush()


def read_response(want_id):
    while True:
        message = json.loads(f.readline())
        if "id" not in message and message.get("method") == "event":
            events.append(message["params"])
            continue
        if message.get("id") == want_id:
            return message


def call(method, params=None):
    global next_id
    next_id += 1
    request = {"id": next_id, "jsonrpc": "2.0", "method": method}
    if params is not None:
        request["params"] = params
    send_line(json.dumps(request))
    return read_response(next_id)


def check(name, ok, detail=None):
    print(json.dumps({"check": name, "ok": bool(ok), "detail": detail}, ensure_ascii=False), flush=True)


def result_ok(name, response, predicate=lambda r: True):
    r = response.get("result")
    check(name, r is not None and predicate(r), response)
    return r or {}


def error_code(name, response, code):
    e = response.get("error") or {}
    check(name, e.get("code") == code and isinstance(e.get("message"), str), response)


if MODE == "--blank":
    error_code("-32012 snapshot-unavailable: get_url before the browser drew", call("get_url"), -32012)
    error_code("-32012 snapshot-unavailable: get_nav_state before the browser drew", call("get_nav_state"), -32012)
    result_ok("snapshot still answers with the blank grid", call("snapshot", {"format": "text"}), lambda r: r.get("height") == len(r.get("lines", [])))
    sys.exit(0)
if MODE == "--leased":
    error_code("-32013 busy/rate-limited: input while another client holds the session", call("send_key", {"key": "Tab"}), -32013)
    result_ok("reads still answer", call("get_title"))
    sys.exit(0)

# --- MVP endpoints ---
result_ok("navigate {ok:true}", call("navigate", {"url": BASE}), lambda r: r.get("ok") is True)
result_ok("get_title", call("get_title"), lambda r: r.get("title") == "Café Münster — Start")
result_ok("get_url", call("get_url"), lambda r: r.get("url") == BASE)
result_ok("get_nav_state", call("get_nav_state"), lambda r: r.get("can_go_back") in (True, False) and r.get("can_go_forward") in (True, False))
snap = result_ok("snapshot text with meta", call("snapshot", {"format": "text", "include_meta": True}),
                 lambda r: r["width"] == len(r["lines"][0]) or r["width"] >= max(len(l) for l in r["lines"]))
meta = snap.get("meta", {})
check("snapshot width/height/lines", snap.get("height") == len(snap.get("lines", [])) and any("Second site start" in l for l in snap.get("lines", [])), snap.get("height"))
check("meta fields", all(k in meta for k in ("cursor", "url", "title", "dpi", "scale", "nav"))
      and isinstance(meta["dpi"], (int, float)) and set(meta["scale"] or {}) == {"width", "height"}
      and set(meta["cursor"]) >= {"x", "y"} and meta["url"] == BASE and meta["title"] == "Café Münster — Start"
      and set(meta["nav"]) == {"can_go_back", "can_go_forward"}, meta)
result_ok("snapshot ansi", call("snapshot", {"format": "ansi"}), lambda r: len(r.get("lines", [])) == r.get("height"))
caps = result_ok("get_capabilities", call("get_capabilities"),
                 lambda r: isinstance(r.get("version"), str) and r.get("platform") == "unix" and "text" in r.get("snapshot_formats", [])
                 and "session_id" in r)
mvp = ["navigate", "send_key", "scroll", "snapshot:text", "get_title", "get_url", "get_nav_state", "set_viewport"]
check("capabilities name the document's features", all(name in caps.get("features", []) for name in mvp), caps.get("features"))
result_ok("set_viewport", call("set_viewport", {"cols": 120, "rows": 40}), lambda r: r.get("ok") is True)
result_ok("snapshot after set_viewport", call("snapshot", {"format": "text"}), lambda r: r["width"] == 120 and r["height"] == 40)
result_ok("set_viewport back to 140x45", call("set_viewport", {"cols": 140, "rows": 45}), lambda r: r.get("ok") is True)

# --- keys, text, scroll on the form and the long page ---
result_ok("navigate form", call("navigate", {"url": BASE + "form.html"}), lambda r: r.get("ok") is True)
result_ok("type_text", call("type_text", {"text": "ab"}), lambda r: r.get("ok") is True)
result_ok("send_key Char", call("send_key", {"key": "Char", "char": "c"}), lambda r: r.get("ok") is True)
result_ok("paste", call("paste", {"text": "d"}), lambda r: r.get("ok") is True)
result_ok("send_key Char beyond ASCII", call("send_key", {"key": "Char", "char": "é"}), lambda r: r.get("ok") is True)
result_ok("wait_for_frame_quiescence", call("wait_for_frame_quiescence", {"idle_ms": 300}), lambda r: r.get("ok") is True)
lines = call("snapshot", {"format": "text"})["result"]["lines"]
check("typed text reached the page", any("typed: abcdé" in l for l in lines), [l for l in lines if "typed" in l])
check("get_url is the page, not the typing", call("get_url")["result"]["url"] == BASE + "form.html")
result_ok("send_key Enter submits", call("send_key", {"key": "Enter"}), lambda r: r.get("ok") is True)
result_ok("wait_for_title_contains", call("wait_for_title_contains", {"substring": "Thanks", "timeout_ms": 20000}),
          lambda r: "Thanks" in r.get("title", ""))
result_ok("get_nav_state after two pages", call("get_nav_state"), lambda r: r.get("can_go_back") is True)
for key in ("Tab", "Up", "Down", "Left", "Right", "Space"):
    result_ok(f"send_key {key}", call("send_key", {"key": key}), lambda r: r.get("ok") is True)
result_ok("navigate long page", call("navigate", {"url": BASE + "long.html"}), lambda r: r.get("ok") is True)
before = call("snapshot", {"format": "text"})["result"]["lines"]
result_ok("scroll 3", call("scroll", {"delta": 3}), lambda r: r.get("ok") is True)
after = call("snapshot", {"format": "text"})["result"]["lines"]
check("scroll moved the page by 3 rows", after[1] == before[4], [before[1], after[1]])
result_ok("scroll -3", call("scroll", {"delta": -3}), lambda r: r.get("ok") is True)

# --- P1: mouse, ping, events ---
result_ok("click {row, col}", call("click", {"row": 5, "col": 5}), lambda r: r.get("ok") is True)
result_ok("mouse_move", call("mouse_move", {"row": 5, "col": 6}), lambda r: r.get("ok") is True)
result_ok("mouse_down", call("mouse_down", {"row": 5, "col": 6}), lambda r: r.get("ok") is True)
result_ok("mouse_up", call("mouse_up", {"row": 5, "col": 7}), lambda r: r.get("ok") is True)
result_ok("ping", call("ping"))
result_ok("subscribe_events", call("subscribe_events"), lambda r: r.get("ok") is True)
result_ok("navigate after subscribing", call("navigate", {"url": BASE}), lambda r: r.get("ok") is True)
call("ping")
check("events arrived", len(events) > 0, events[:2])

# --- errors: standard JSON-RPC and the document's domain codes ---
send_line("{not json")
e = json.loads(f.readline())
check("-32700 parse error", e.get("error", {}).get("code") == -32700, e)
next_id += 1
send_line(json.dumps({"id": next_id, "jsonrpc": "2.0"}))
error_code("-32600 invalid request", read_response(next_id), -32600)
error_code("-32601 method not found", call("no_such_method"), -32601)
error_code("-32602 invalid params", call("scroll", {"delta": "three"}), -32602)
error_code("-32602 navigate invalid://url", call("navigate", {"url": "invalid://url"}), -32602)
error_code("-32010 timeout", call("wait_for_title_contains", {"substring": "never there", "timeout_ms": 200}), -32010)
error_code("-32011 invalid-key (unknown key)", call("send_key", {"key": "Bogus"}), -32011)
error_code("-32011 invalid-key (Char not one character)", call("send_key", {"key": "Char", "char": "ab"}), -32011)
error_code("-32014 invalid-viewport", call("set_viewport", {"cols": 0, "rows": 0}), -32014)
s.close()
