// The fixed files the truth corpus's programs work on: the same names, contents and dates on
// every recording, so a re-recorded cast shows the same screens (labels stay valid).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const FIXED_DATE = "2024-01-02T03:04:05Z";

function write(dir: string, name: string, text: string): void {
  mkdirSync(join(dir, name, ".."), { recursive: true });
  writeFileSync(join(dir, name), text);
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Ada Truth", GIT_AUTHOR_EMAIL: "ada@example.org", GIT_AUTHOR_DATE: FIXED_DATE,
  GIT_COMMITTER_NAME: "Ada Truth", GIT_COMMITTER_EMAIL: "ada@example.org", GIT_COMMITTER_DATE: FIXED_DATE,
};

function git(repo: string, ...args: string[]): void {
  execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", ...args], { cwd: repo, env: { ...process.env, ...GIT_ENV }, stdio: "ignore" });
}

/** Fills `dir` with the corpus's files (text files, a web page, a git repository, a directory
 * tree, small scripts) and returns it. */
export function makeScratch(dir: string): string {
  mkdirSync(dir, { recursive: true });
  write(dir, "a.txt", "alpha\nbeta\ngamma\ndelta\n");
  write(dir, "b.txt", "one\ntwo\nthree\n");
  write(dir, "c.txt", "red\ngreen\nblue\n");
  write(dir, "long.txt", Array.from({ length: 200 }, (_, i) => `line ${String(i + 1).padStart(3, "0")}: the quick brown fox`).join("\n") + "\n");
  write(dir, "fruits.txt", ["apple", "banana", "blueberry", "cherry", "date", "fig", "grape", "mango"].join("\n") + "\n");
  write(dir, "page.html", `<!doctype html><html><head><title>Truth page</title></head><body>
<h1>Truth page</h1>
<p>First paragraph with a <a href="one.html">first link</a> in it.</p>
<p>Second paragraph, then <a href="two.html">second link</a> and <a href="three.html">third link</a>.</p>
<p>Closing words.</p>
</body></html>
`);
  write(dir, "prog.c", `#include <stdio.h>

static int square(int x) {
  return x * x;
}

int main(void) {
  int total = 0;
  for (int i = 0; i < 3; i++) {
    total += square(i);
  }
  printf("%d\\n", total);
  return 0;
}
`);
  execFileSync("gcc", ["-g", "-O0", "-o", "prog", "prog.c"], { cwd: dir });
  write(dir, "menu.py", `import curses

ITEMS = ["Open", "Save", "Export", "Print", "Quit"]


def main(screen):
    curses.curs_set(0)
    current = 0
    while True:
        screen.erase()
        rows, cols = screen.getmaxyx()
        screen.addstr(0, 0, " Curses menu ".ljust(cols), curses.A_REVERSE)
        for i, item in enumerate(ITEMS):
            screen.addstr(3 + i, 4, f" {item:<12}", curses.A_REVERSE if i == current else curses.A_NORMAL)
        screen.addstr(rows - 1, 0, " Up/Down: move  Enter: choose  q: quit ".ljust(cols - 1), curses.A_REVERSE)
        screen.refresh()
        key = screen.getch()
        if key == curses.KEY_DOWN:
            current = min(current + 1, len(ITEMS) - 1)
        elif key == curses.KEY_UP:
            current = max(current - 1, 0)
        elif key in (ord("q"), 10):
            return


curses.wrapper(main)
`);
  write(dir, "complete.py", `from prompt_toolkit import prompt
from prompt_toolkit.completion import WordCompleter

fruit = WordCompleter(["banana", "blueberry", "blackberry", "cherry", "date"])
answer = prompt("fruit> ", completer=fruit, complete_while_typing=True)
print("you chose", answer)
`);
  write(dir, "script.py", "def double(x):\n    return 2 * x\n\nprint(double(21))\n");
  for (const [name, size] of [["docs/report.pdf", 40000], ["docs/notes.txt", 1200], ["media/song.ogg", 90000], ["media/clip.mp4", 250000], ["src/main.c", 3000], ["src/util.c", 800], ["README", 300]] as const) {
    write(join(dir, "tree"), name, "x".repeat(size));
  }
  const repo = join(dir, "repo");
  mkdirSync(repo, { recursive: true });
  git(repo, "init", "-q");
  write(repo, "hello.txt", "hello\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "Add hello");
  write(repo, "hello.txt", "hello\nworld\n");
  git(repo, "commit", "-q", "-am", "Say world");
  write(repo, "notes.md", "# Notes\n\nFirst note.\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "Start notes");
  write(repo, "hello.txt", "hello\nbrave new\nworld\n");
  return dir;
}
