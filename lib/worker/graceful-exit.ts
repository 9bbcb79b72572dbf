// The first step of `end`: ask a program we know to leave the way its user would (`exit`,
// `exit()`, `.exit`, `\q` …). The program is the terminal's foreground process group's leader,
// read from /proc (its executable's name, or for an interpreter running a REPL, the name it
// was started as). Unknown programs get none: Ctrl-C and signals follow.
import { readFileSync } from "node:fs";
import { foregroundGroup, processArgv } from "../runtime/process.ts";

/** Program name (without a version suffix such as python3.12) → what its user types to leave. */
const EXIT_LINES: Record<string, string> = {
  bash: "exit\r", zsh: "exit\r", fish: "exit\r", sh: "exit\r", dash: "exit\r", ksh: "exit\r", mksh: "exit\r", tcsh: "exit\r", csh: "exit\r",
  python: "exit()\r", python3: "exit()\r", ipython: "exit()\r", ipython3: "exit()\r", pypy: "exit()\r", pypy3: "exit()\r",
  node: ".exit\r", deno: "close()\r", bun: ".exit\r",
  irb: "exit\r", pry: "exit\r", lua: "os.exit()\r", luajit: "os.exit()\r",
  psql: "\\q\r", sqlite3: ".quit\r", mysql: "quit\r", mariadb: "quit\r", "redis-cli": "quit\r",
  ghci: ":quit\r", R: "q('no')\r", julia: "exit()\r", erl: "q().\r", iex: "System.halt()\r", gdb: "quit\r", ftp: "bye\r", sftp: "bye\r",
};

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/[.-]?\d+(\.\d+)*$/, ""); // python3.12 → python, lua5.4 → lua
}

/** The foreground program of the session whose leader is `shellPid`, when it is not the shell
 * itself (a builtin such as `read` is running): its name and the line that ends it, if known. */
export function foregroundExit(shellPid: number): { program: string; line: string | null } | null {
  const group = foregroundGroup(shellPid);
  if (group === null || group === shellPid) return null;
  let program: string;
  try {
    program = readFileSync(`/proc/${group}/comm`, "utf8").trim();
  } catch {
    return null;
  }
  const argv = processArgv(group) ?? [];
  for (const name of [program, baseName(program), baseName(argv[0] ?? "")]) {
    if (Object.hasOwn(EXIT_LINES, name)) return { program: name, line: EXIT_LINES[name]! };
  }
  return { program, line: null };
}
