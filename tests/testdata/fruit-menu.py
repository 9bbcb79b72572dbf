# A curses menu: an inverse title bar on the first row, items whose current one is drawn on a
# blue background 28 cells wide, a tab line whose brackets change foreground colour on one
# background, and an inverse status bar on the last row. Down/Up move, q quits.
import curses

ITEMS = ["Apple", "Banana", "Cherry", "Damson"]

def main(screen):
    curses.curs_set(0)
    curses.start_color()
    curses.init_pair(1, curses.COLOR_WHITE, curses.COLOR_BLUE)
    curses.init_pair(2, curses.COLOR_RED, curses.COLOR_WHITE)
    curses.init_pair(3, curses.COLOR_BLACK, curses.COLOR_WHITE)
    current = 0
    while True:
        height, width = screen.getmaxyx()
        screen.erase()
        screen.addstr(0, 0, " Fruit Picker".ljust(width), curses.A_REVERSE)
        screen.addstr(2, 2, "[", curses.color_pair(2))
        screen.addstr(2, 3, "Main", curses.color_pair(3))
        screen.addstr(2, 7, "]", curses.color_pair(2))
        for i, item in enumerate(ITEMS):
            attr = curses.color_pair(1) if i == current else curses.A_NORMAL
            screen.addstr(4 + i, 2, f" {item}".ljust(28), attr)
        screen.addstr(height - 1, 0, f" {ITEMS[current]} | q quits".ljust(width - 1), curses.A_REVERSE)
        screen.refresh()
        key = screen.getch()
        if key == ord("q"):
            return
        if key == curses.KEY_DOWN:
            current = (current + 1) % len(ITEMS)
        if key == curses.KEY_UP:
            current = (current - 1) % len(ITEMS)

curses.wrapper(main)
