# A process-table-like screen with mouse input: rows keyed by PID whose values change and whose
# order rotates on "r"; "d" removes PID 300; a click reports the PID of the row clicked on the
# last row ("CLICK 200"); "q" quits.
import os, re, sys, tty

fd = sys.stdin.fileno()
tty.setraw(fd)
rows = [[100, "alpha", 1.0], [200, "beta", 2.0], [300, "gamma", 3.0]]
last = "no clicks yet"
EVENT = re.compile(rb"\x1b\[<(\d+);(\d+);(\d+)([Mm])")

def draw():
    table = "".join(f"{pid:5d} {name:8s} {cpu:5.1f}\r\n" for pid, name, cpu in rows)
    os.write(1, f"\x1b[2J\x1b[H  PID NAME       CPU\r\n{table}\x1b[10;1H{last}".encode())

os.write(1, b"\x1b[?1000h\x1b[?1006h")
draw()
pending = b""
while True:
    pending += os.read(fd, 64)
    while pending:
        if pending.startswith(b"\x1b"):
            match = EVENT.match(pending)
            if not match:
                break
            pending = pending[match.end():]
            if match[4] == b"M":
                row = int(match[3]) - 2
                last = f"CLICK {rows[row][0] if 0 <= row < len(rows) else '-'}"
                draw()
        else:
            key, pending = pending[:1], pending[1:]
            if key == b"q":
                os.write(1, b"\x1b[?1000l\x1b[?1006l")
                sys.exit(0)
            if key == b"r":
                rows = rows[1:] + rows[:1]
                for row in rows:
                    row[2] += 10
            if key == b"d":
                rows = [row for row in rows if row[0] != 300]
            draw()
