# A list that reports mouse clicks (SGR 1006) on its last row; "i" inserts an item at the top
# (so everything below moves down), "q" quits.
import os, re, sys, tty

fd = sys.stdin.fileno()
tty.setraw(fd)
items = ["apple", "banana", "cherry"]
last = "no clicks yet"
EVENT = re.compile(rb"\x1b\[<(\d+);(\d+);(\d+)([Mm])")

def draw():
    rows = "".join(f"{item}\r\n" for item in items)
    os.write(1, f"\x1b[2J\x1b[H{rows}\x1b[20;1H{last}".encode())

os.write(1, b"\x1b[?1000h\x1b[?1006h")
draw()
pending = b""
while True:
    pending += os.read(fd, 64)
    while pending:
        if pending.startswith(b"\x1b"):
            match = EVENT.match(pending)
            if not match:
                break  # an incomplete event: read more
            pending = pending[match.end():]
            if match[4] == b"M":
                row = int(match[3]) - 1
                last = f"CLICK {row},{int(match[2]) - 1} {items[row] if row < len(items) else '-'}"
                draw()
        elif pending.startswith(b"q"):
            sys.exit(0)
        elif pending.startswith(b"i"):
            pending = pending[1:]
            items.insert(0, "NEW")
            draw()
        else:
            pending = pending[1:]
