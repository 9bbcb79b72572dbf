#!/usr/bin/env python3
"""An outside client written from ../shared/seeds/agent-interactive-pty.md alone: only the
document's method names, parameters and result fields, JSON-RPC 2.0 (one JSON object per
line) over the Unix socket named by $PTY_SOCKET. It runs the document's own example flow
(number guessing) and its rules, and exits non-zero on the first broken promise."""
import json
import os
import socket
import sys


class PtyClient:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf = b""
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        frame = {"jsonrpc": "2.0", "id": self.next_id, "method": "pty." + method, "params": params}
        self.sock.sendall(json.dumps(frame).encode() + b"\n")
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("connection closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        reply = json.loads(line)
        if "error" in reply:
            raise PtyError(reply["error"])
        return reply["result"]

    # The document's API surface, argument for argument.
    def exec_block(self, conversation_id, command, cwd=None):
        return self.call("exec_block", conversation_id=conversation_id, command=command, **({"cwd": cwd} if cwd else {}))

    def exec_interactive(self, conversation_id, command, cwd=None):
        return self.call("exec_interactive", conversation_id=conversation_id, command=command, **({"cwd": cwd} if cwd else {}))

    def send(self, conversation_id, data, session_id=None):
        return self.call("send", conversation_id=conversation_id, data=data, **({"session_id": session_id} if session_id else {}))

    def ctrl_c(self, conversation_id, session_id=None):
        return self.call("ctrl_c", conversation_id=conversation_id, **({"session_id": session_id} if session_id else {}))

    def ctrl_d(self, conversation_id, session_id=None):
        return self.call("ctrl_d", conversation_id=conversation_id, **({"session_id": session_id} if session_id else {}))

    def enter(self, conversation_id, session_id=None):
        return self.call("enter", conversation_id=conversation_id, **({"session_id": session_id} if session_id else {}))

    def wait_for(self, conversation_id, match, session_id=None, *, regex=False, from_cursor=None, timeout_ms=30000, max_bytes=None):
        params = {"conversation_id": conversation_id, "match": match, "regex": regex, "timeout_ms": timeout_ms}
        if session_id:
            params["session_id"] = session_id
        if from_cursor is not None:
            params["from_cursor"] = from_cursor
        if max_bytes is not None:
            params["max_bytes"] = max_bytes
        return self.call("wait_for", **params)

    def status(self, conversation_id):
        return self.call("status", conversation_id=conversation_id)

    def end_session(self, conversation_id, session_id):
        return self.call("end_session", conversation_id=conversation_id, session_id=session_id)

    def reset(self, conversation_id):
        return self.call("reset", conversation_id=conversation_id)


class PtyError(Exception):
    def __init__(self, error):
        super().__init__(error.get("message"))
        self.error = error


def check(what, condition, detail=None):
    if not condition:
        print(f"FAILED: {what}: {detail!r}", file=sys.stderr)
        sys.exit(1)
    print(f"ok: {what}")


def main():
    guess = sys.argv[1]
    pty = PtyClient(os.environ["PTY_SOCKET"])
    conv = "conv1"

    # A block: one per invocation, compound commands included; no sleeps.
    block = pty.exec_block(conv, "echo one; echo two")
    check("exec_block returns ok, block_id, seq, ts_begin", block["ok"] and isinstance(block["block_id"], int) and isinstance(block["seq"], int) and block["ts_begin"], block)
    check("the compound command is one block with both lines", "one\ntwo" in block["output"], block)
    status = pty.status(conv)
    check("status after a block: idle, with shell_id and pid", status["ok"] and status["mode"] == "idle" and status["shell_id"] and isinstance(status["pid"], int), status)

    # The example flow, step by step.
    started = pty.exec_interactive(conv, guess)
    check("exec_interactive returns ok, session_id, block_id, ts_begin", started["ok"] and started["session_id"] and started["block_id"] and started["ts_begin"], started)
    session_id = started["session_id"]
    status = pty.status(conv)
    check("status: interactive, naming the session and its block", status["mode"] == "interactive" and status["active_session_id"] == session_id and status["active_block_id"] == started["block_id"], status)
    try:
        pty.exec_block(conv, "echo must-not-run")
        check("exec_block is forbidden while interactive", False, "it was accepted")
    except PtyError as error:
        check("exec_block is forbidden while interactive (clear error)", "interactive" in str(error), str(error))
    asked = pty.wait_for(conv, "Guess a number", session_id, from_cursor=0)
    check("wait_for substring: matched, match_text, cursor", asked["ok"] and asked["matched"] and asked["match_text"] == "Guess a number" and isinstance(asked["cursor"], int), asked)
    pty.send(conv, "3\r", session_id)
    wrong = pty.wait_for(conv, r"Wrong.*\n.*Guess a number", session_id, regex=True, from_cursor=asked["cursor"])
    check("wait_for regex (flagged explicitly)", wrong["matched"] and wrong["cursor"] > asked["cursor"], wrong)
    pty.send(conv, "7", session_id)
    pty.enter(conv, session_id)
    correct = pty.wait_for(conv, "Correct!", session_id, from_cursor=wrong["cursor"])
    check("wait_for after send + enter", correct["matched"], correct)
    prompt = pty.wait_for(conv, "PROMPT", session_id, from_cursor=correct["cursor"])
    check("wait_for PROMPT: the session ended back at the prompt", prompt["matched"], prompt)
    eof = pty.wait_for(conv, "EOF", session_id, from_cursor=started.get("cursor", correct["cursor"]))
    check("wait_for EOF: the interactive session ended", eof["matched"], eof)
    check("status: idle again", pty.status(conv)["mode"] == "idle")

    # A timeout is an answer with matched false, not a sleep.
    missing = pty.wait_for(conv, "never printed", from_cursor=prompt["cursor"], timeout_ms=200)
    check("wait_for that does not match in time: matched false", missing["matched"] is False, missing)
    literal = pty.exec_block(conv, "echo '/a.b/'")
    found = pty.wait_for(conv, "/a.b/", from_cursor=prompt["cursor"])
    check("a match with slashes is a substring unless regex is set", found["matched"] and found["match_text"] == "/a.b/", found)

    # Ending: a REPL the document calls known gets a graceful exit; ctrl_c; reset.
    repl = pty.exec_interactive(conv, "python3 -q")
    pty.wait_for(conv, ">>> ", from_cursor=repl.get("cursor", 0))
    ended = pty.end_session(conv, repl["session_id"])
    check("end_session ends the REPL", ended["ok"] and pty.status(conv)["mode"] == "idle", ended)
    cat = pty.exec_interactive(conv, "cat")
    pty.ctrl_c(conv, cat["session_id"])
    back = pty.wait_for(conv, "PROMPT", from_cursor=cat.get("cursor", 0))
    check("ctrl_c ends cat back at the prompt", back["matched"], back)
    reset = pty.reset(conv)
    check("reset answers ok", reset["ok"], reset)
    after = pty.exec_block(conv, "echo fresh")
    check("the PTY works after reset", after["ok"] and after["output"] == "fresh\n", after)
    print("conformance: all checks passed")


if __name__ == "__main__":
    main()
