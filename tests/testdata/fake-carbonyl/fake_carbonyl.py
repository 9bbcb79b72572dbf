#!/usr/bin/env python3
# A stand-in for Carbonyl that draws its bar and a page the way Carbonyl does (CUP before each
# row, ▄ pixels, then the page's text), and on a resize behaves as its URL's host says:
#   http://redraws/  bar, pixels, then text at the new size (a healthy browser)
#   http://stalls/   the bar only: no page frame ever comes (Chromium sent none)
#   http://pixels/   bar and pixels, never the text (Carbonyl's text-less frames)
#   http://nudged/   the bar only on the first resize; a whole frame on the next (a nudge)
#   http://loses-text/  a whole frame, then 50 ms later the pixels again without the text
#   http://wedges/   on its first resize it deadlocks as Carbonyl now and then does: no frame, and
#                    its engine answers nothing any more; once only (a FAKE_CARBONYL_WEDGED file
#                    marks it), so the browser started again after it behaves (as "redraws")
#   http://wedges-loading/  its first reload is answered, and then it deadlocks: no load event, and
#                    its engine answers nothing any more; once only (FAKE_CARBONYL_WEDGED)
#   http://draws-late/  text typed through the engine is on the page at once (the DOM snapshot
#                    has "typed: …"), and on the screen 400 ms later (Carbonyl drawing a frame late)
#   http://blanks/   Carbonyl's screen stall: from its first reload on, every frame (a resize's
#                    too) is pixels without the text, while the engine has the page; once only
#                    (a FAKE_CARBONYL_BLANKED file marks it), so a browser started again draws
#   http://blanks-at-start/  the same stall from the first frame on (the start's page is never
#                    drawn); once only (FAKE_CARBONYL_BLANKED), so a browser started again draws
#   http://unhooked/  Carbonyl missing a new renderer's hook to the terminal: each reload or
#                    navigation starts a renderer whose frames (a resize's too) are pixels without
#                    the text, while the engine has the page — except the renderer a load starts
#                    after a crash (Page.crash ends the renderer as Chromium's does), which draws
# With --remote-debugging-pipe it answers the DevTools protocol on fds 3/4 the way Chromium does
# for what tuiwright asks (target, page, layout metrics, a DOM snapshot holding the two lines of
# text it draws, history): the engine always has the frame; what reaches the screen is the mode's.
# Enter pressed through the engine (Input.dispatchKeyEvent) can, as a page's script would:
#   FAKE_CARBONYL_DIALOG=alert|confirm|prompt  open that JavaScript dialog (Page.javascriptDialogOpening);
#       as in Chromium, every renderer call (that key's dispatch too) waits until
#       Page.handleJavaScriptDialog answers it; the answer becomes the page's title (history)
#   FAKE_CARBONYL_CRASH=1  crash the renderer (Target.targetCrashed, Inspector.targetCrashed): no
#       renderer call is answered any more, until Page.reload or Page.navigate starts a new one
# And while starting, as Chromium's failed CHECK now and then does on a loaded machine:
#   FAKE_CARBONYL_START_CRASH=PATH|always  the whole browser dies of SIGTRAP on the first
#       Runtime.evaluate of a frame (tuiwright's start waits for one); once only with PATH (the
#       file marks it, so a browser started again behaves), every start with "always"
#   FAKE_CARBONYL_START_CRASH_EXIT=127  …exits 127 instead, as Carbonyl does when the Chromium it
#       runs as its child died of a signal
# And later, as Chromium's failed CHECK now and then does mid-session (Carbonyl then exits 127):
#   FAKE_CARBONYL_NAVIGATE_CRASH=PATH|always  the browser exits 127 on Page.navigate, unanswered;
#       once only with PATH (the file marks it, so a browser started again behaves), or every time
#   SIGUSR1  the browser exits 127 at once, between calls (its Chromium child died meanwhile)
import json, os, signal, sys, threading, time

DIALOG = os.environ.get("FAKE_CARBONYL_DIALOG", "")
CRASH = os.environ.get("FAKE_CARBONYL_CRASH", "") == "1"
# Calls the browser process answers itself, under a dialog or after a crash.
BROWSER_SIDE = {"Page.getNavigationHistory", "Page.handleJavaScriptDialog", "Page.reload", "Page.navigate", "Page.navigateToHistoryEntry"}
page = {"title": "Fake page", "loader": 1, "dialog": None, "crashed": False}
held = []  # renderer calls waiting for the dialog to be answered (never answered after a crash)

url = next((a for a in sys.argv[1:] if a.startswith("http")), "http://redraws/")
mode = url.split("/")[2]
out = sys.stdout

def bar(cols):
    field = f" {url}".ljust(cols - 13)
    out.write(f"\x1b[?25l\x1b[1;1H[❮][❯][↻][{field}]")

def pixels(cols, rows):
    for row in range(2, rows + 1):
        out.write(f"\x1b[{row};1H\x1b[38;5;231m" + "▄" * cols)

def text():
    out.write("\x1b[4;3H\x1b[38;5;16mFake page text\x1b[6;3HAnother line")

blank = False  # http://blanks/ after its first reload: the text never reaches the screen
_marker = os.environ.get("FAKE_CARBONYL_BLANKED", "")
if mode == "blanks-at-start" and _marker and not os.path.exists(_marker):
    open(_marker, "w").close()
    blank = True

def frame(page=True, words=True):
    words = words and not blank
    cols, rows = os.get_terminal_size(0)
    out.write("\x1b]0;Fake page\x07")
    bar(cols)
    if page:
        pixels(cols, rows)
        if words:
            text()
    out.flush()

resizes = 0
wedged = False
def resized(*_):
    global resizes, wedged
    resizes += 1
    marker = os.environ.get("FAKE_CARBONYL_WEDGED", "")
    if mode == "wedges" and marker and not os.path.exists(marker):
        open(marker, "w").close()
        wedged = True
    if wedged:
        return
    if mode in ("redraws", "wedges", "blanks", "unhooked") or (mode == "nudged" and resizes > 1):
        frame()
    elif mode == "loses-text":
        # The text goes again within the 100 ms a drawn page must stay drawn (CONFIRM_MS): the next
        # frame follows at once. A 50 ms pause here was the fake's own pace, and a loaded machine
        # stretched it past 100 ms now and then — then the page had truly stayed drawn (CI run 8).
        frame()
        frame(words=False)
    elif mode == "pixels":
        frame(words=False)
    else:
        frame(page=False)

PIXELS_PER_CSS = 0.38

def layout_metrics():
    cols, rows = os.get_terminal_size(0)
    device = {"clientWidth": cols * 2, "clientHeight": (rows - 1) * 4}
    css = {"clientWidth": cols * 2 / PIXELS_PER_CSS, "clientHeight": (rows - 1) * 4 / PIXELS_PER_CSS, "pageX": 0, "pageY": 0}
    return {"visualViewport": device, "cssVisualViewport": css, "layoutViewport": device, "cssLayoutViewport": css}

# The two lines text() draws, in device pixels (a cell is 2x4): row 3 col 2 and row 5 col 2.
DOM_SNAPSHOT = {
    "strings": ["Fake page text", "Another line"],
    "documents": [{
        "nodes": {"backendNodeId": [1, 2]},
        "layout": {"nodeIndex": [0, 1], "bounds": [[4, 8, 28, 4], [4, 16, 24, 4]], "text": [0, 1]},
        "textBoxes": {"layoutIndex": [0, 1], "bounds": [[4, 8, 28, 4], [4, 16, 24, 4]], "start": [0, 0], "length": [14, 12]},
        "scrollOffsetX": 0, "scrollOffsetY": 0,
    }],
}

typed = {"text": ""}  # http://draws-late/: what the page got, shown below the page's text

def snapshot():
    if not typed["text"]:
        return DOM_SNAPSHOT
    line = f"typed: {typed['text']}"
    doc = DOM_SNAPSHOT["documents"][0]
    box = [4, 28, len(line) * 2, 4]  # screen row 8 (1-based 9), col 2
    return {"strings": DOM_SNAPSHOT["strings"] + [line], "documents": [{
        "nodes": {"backendNodeId": [1, 2, 3]},
        "layout": {"nodeIndex": [0, 1, 2], "bounds": doc["layout"]["bounds"] + [box], "text": [0, 1, 2]},
        "textBoxes": {"layoutIndex": [0, 1, 2], "bounds": doc["textBoxes"]["bounds"] + [box], "start": [0, 0, 0], "length": [14, 12, len(line)]},
        "scrollOffsetX": 0, "scrollOffsetY": 0,
    }]}

def draw_typed():
    out.write(f"\x1b[9;3H\x1b[38;5;16mtyped: {typed['text']}")
    out.flush()

def answer(method, params):
    if method == "Target.getTargets":
        return {"targetInfos": [{"targetId": "PAGE", "type": "page", "url": url, "title": "Fake page"}]}
    if method == "Target.attachToTarget":
        return {"sessionId": "SESSION"}
    if method == "Page.getFrameTree":
        return {"frameTree": {"frame": {"id": "FRAME", "loaderId": "LOADER", "url": url}}}
    if method == "Runtime.evaluate":
        return {"result": {"type": "string", "value": "complete"}} if "readyState" in params.get("expression", "") else {"result": {"type": "boolean", "value": True}}
    if method == "Page.getLayoutMetrics":
        return layout_metrics()
    if method == "DOMSnapshot.captureSnapshot":
        return snapshot()
    if method == "Page.getNavigationHistory":
        return {"currentIndex": 0, "entries": [{"id": 1, "url": url, "title": page["title"]}]}
    if method == "Accessibility.getFullAXTree":
        return {"nodes": []}
    return {}

def send(message):
    os.write(4, json.dumps(message).encode() + b"\0")

def event(method, params, session=True):
    send({"method": method, "params": params, **({"sessionId": "SESSION"} if session else {})})

def reply(message):
    answer_ = {"id": message["id"], "result": answer(message["method"], message.get("params", {}))}
    if "sessionId" in message:
        answer_["sessionId"] = message["sessionId"]
    send(answer_)

def new_document():
    """A reload or navigation: a new renderer commits the page again and loads it."""
    global blank
    if mode == "unhooked":
        blank = not page["crashed"]
    marker = os.environ.get("FAKE_CARBONYL_BLANKED", "")
    if mode == "blanks" and marker and not os.path.exists(marker):
        open(marker, "w").close()
        blank = True
    page["crashed"] = False
    page["loader"] += 1
    loader = f"LOADER{page['loader']}"
    event("Page.frameNavigated", {"frame": {"id": "FRAME", "loaderId": loader, "url": url}})
    for name in ("DOMContentLoaded", "load"):
        event("Page.lifecycleEvent", {"frameId": "FRAME", "loaderId": loader, "name": name})
    frame()
    return {"frameId": "FRAME", "loaderId": loader}

def handle(message):
    method, params = message["method"], message.get("params", {})
    start_crash = os.environ.get("FAKE_CARBONYL_START_CRASH", "")
    if start_crash and method == "Runtime.evaluate" and "requestAnimationFrame" in params.get("expression", ""):
        if start_crash == "always" or not os.path.exists(start_crash):
            if start_crash != "always":
                open(start_crash, "w").close()
            if os.environ.get("FAKE_CARBONYL_START_CRASH_EXIT"):
                os._exit(int(os.environ["FAKE_CARBONYL_START_CRASH_EXIT"]))
            os.kill(os.getpid(), signal.SIGTRAP)
    if method == "Page.handleJavaScriptDialog" and page["dialog"]:
        answered = "accepted" if params.get("accept") else "dismissed"
        page["title"] = f"{page['dialog']} {answered}" + (f": {params['promptText']}" if "promptText" in params else "")
        page["dialog"] = None
        reply(message)
        event("Page.javascriptDialogClosed", {"result": bool(params.get("accept")), "userInput": params.get("promptText", "")})
        for waiting in held[:]:
            held.remove(waiting)
            reply(waiting)
        return
    marker = os.environ.get("FAKE_CARBONYL_WEDGED", "")
    if method == "Page.reload" and mode == "wedges-loading" and marker and not os.path.exists(marker):
        global wedged
        open(marker, "w").close()
        send({"id": message["id"], "sessionId": "SESSION", "result": {}})
        wedged = True
        return
    navigate_crash = os.environ.get("FAKE_CARBONYL_NAVIGATE_CRASH", "")
    if navigate_crash and method == "Page.navigate" and (navigate_crash == "always" or not os.path.exists(navigate_crash)):
        if navigate_crash != "always":
            open(navigate_crash, "w").close()
        os._exit(127)
    if method in ("Page.reload", "Page.navigate"):
        loaded = new_document()
        send({"id": message["id"], "sessionId": "SESSION", "result": loaded if method == "Page.navigate" else {}})
        return
    if "sessionId" in message and method not in BROWSER_SIDE and (page["dialog"] or page["crashed"]):
        held.append(message)
        return
    got = params.get("text", "") if method == "Input.insertText" or (method == "Input.dispatchKeyEvent" and params.get("type") == "keyDown") else ""
    if mode == "draws-late" and got and got != "\r":
        typed["text"] += got
        threading.Timer(0.4, draw_typed).start()
    enter = method == "Input.dispatchKeyEvent" and params.get("key") == "Enter" and params.get("type") == "keyDown"
    if enter and DIALOG:
        page["dialog"] = DIALOG
        held.append(message)  # answered once the dialog is, as Chromium's input dispatch is
        event("Page.javascriptDialogOpening", {"url": url, "message": f"Fake {DIALOG}?", "type": DIALOG, "hasBrowserHandler": False, "defaultPrompt": ""})
        return
    if (enter and CRASH) or method == "Page.crash":
        page["crashed"] = True
        held.append(message)
        event("Target.targetCrashed", {"targetId": "PAGE", "status": "crashed", "errorCode": 139}, session=False)
        event("Inspector.targetCrashed", {})
        return
    reply(message)

def devtools():
    """Answers calls read from fd 3 on fd 4, one NUL-terminated JSON message each."""
    pending = b""
    while True:
        chunk = os.read(3, 65536)
        if not chunk:
            return
        pending += chunk
        while b"\0" in pending:
            frame, pending = pending.split(b"\0", 1)
            message = json.loads(frame)
            if wedged:
                continue
            handle(message)

if "--remote-debugging-pipe" in sys.argv:
    threading.Thread(target=devtools, daemon=True).start()

signal.signal(signal.SIGWINCH, resized)
signal.signal(signal.SIGUSR1, lambda *_: os._exit(127))
out.write("\x1b[2J")
frame()
while True:
    signal.pause()
