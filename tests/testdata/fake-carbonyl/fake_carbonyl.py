#!/usr/bin/env python3
# A stand-in for Carbonyl that draws its bar and a page the way Carbonyl does (CUP before each
# row, ▄ pixels, then the page's text), and on a resize behaves as its URL's host says:
#   http://redraws/  bar, pixels, then text at the new size (a healthy browser)
#   http://stalls/   the bar only: no page frame ever comes (Chromium sent none)
#   http://pixels/   bar and pixels, never the text (Carbonyl's text-less frames)
#   http://nudged/   the bar only on the first resize; a whole frame on the next (a nudge)
#   http://loses-text/  a whole frame, then 50 ms later the pixels again without the text
import os, signal, sys, time

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

def frame(page=True, words=True):
    cols, rows = os.get_terminal_size(0)
    out.write("\x1b]0;Fake page\x07")
    bar(cols)
    if page:
        pixels(cols, rows)
        if words:
            text()
    out.flush()

resizes = 0
def resized(*_):
    global resizes
    resizes += 1
    if mode == "redraws" or (mode == "nudged" and resizes > 1):
        frame()
    elif mode == "loses-text":
        frame()
        time.sleep(0.05)  # the program's own pace, as Chromium's next frame would come
        frame(words=False)
    elif mode == "pixels":
        frame(words=False)
    else:
        frame(page=False)

signal.signal(signal.SIGWINCH, resized)
out.write("\x1b[2J")
frame()
while True:
    signal.pause()
