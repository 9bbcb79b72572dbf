// exec skips the shell's parser process for plain lines: the lines it calls plain must be lines
// bash and zsh accept, and anything else must still reach the shell's own parser.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ParserSpares, syntaxProblem } from "../../../lib/shell/command-check.ts";
import { processGone } from "../../helpers/harness.ts";
import { isPlainCommand } from "../../../lib/shell/plain-command.ts";

const PLAIN = ["true", "make test", "cd src && ls -la", "git status | head -n 3", "a=1 b=2 env", "sleep 1 &", "ls; pwd;", "x || y && z", "echo ~/a,b:c@d%e+f", "-x", "  true  "];
const NOT_PLAIN = [
  "", "   ", ";", "&& true", "true &&", "true |", "true ||", "a ;; b", "a | | b", "a |& b", "a && && b", "if true", "true; fi", "for x in a", "echo done",
  "echo 'q'", "echo \"q\"", "echo $HOME", "echo `x`", "echo $(x)", "echo > f", "cat < f", "echo a # c", "{ true; }", "(true)", "[[ a ]]", "! true",
  "ls *.txt", "echo a\nb", "echo a\\", "time true", "function f", "coproc x", "declare a", "repeat 3 true", "echo {a,b}",
];

describe("isPlainCommand", () => {
  test("plain lines are recognised", () => {
    for (const line of PLAIN) expect([line, isPlainCommand(line)]).toEqual([line, true]);
  });
  test("anything with syntax beyond words and list operators is not plain", () => {
    for (const line of NOT_PLAIN) expect([line, isPlainCommand(line)]).toEqual([line, false]);
  });
  test("every line it calls plain parses in bash -n and zsh -n", () => {
    // Generated lines from words and operators, reserved words among them: the classifier may
    // refuse a line bash accepts, never the other way round.
    const atoms = ["true", "ls", "-la", "a=1", "if", "then", "fi", "done", "&&", "||", "|", ";", "&", "x.y", "~/z", "in", "{", "}"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % atoms.length;
    const lines = Array.from({ length: 1000 }, () => Array.from({ length: 1 + (next() % 5) }, () => atoms[next()]).join(" "));
    const plain = [...new Set([...PLAIN, ...lines])].filter(isPlainCommand);
    expect(plain.length).toBeGreaterThan(30);
    for (const shell of [["bash", "-O", "extglob", "-n"], ["zsh", "-f", "-n"]]) {
      if (Bun.which(shell[0]!) === null) continue;
      for (const line of plain) {
        const checked = Bun.spawnSync(shell, { stdin: new Blob([line]), stderr: "pipe" });
        expect([shell[0], line, checked.exitCode, checked.stderr.toString()]).toEqual([shell[0], line, 0, ""]);
      }
    }
  }, 60_000); // a parser process per line: slow on a loaded machine
});

describe("syntaxProblem", () => {
  // A bash on PATH that leaves a mark when it runs: shows which commands were given to a parser process.
  let dir: string;
  let savedPath: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "tw-plain-"));
    writeFileSync(join(dir, "bash"), `#!/bin/sh\ntouch ${dir}/ran\nexec /bin/bash "$@"\n`);
    chmodSync(join(dir, "bash"), 0o755);
    savedPath = process.env.PATH;
    process.env.PATH = `${dir}:${savedPath}`;
  });
  afterAll(() => {
    process.env.PATH = savedPath;
    rmSync(dir, { recursive: true, force: true });
  });

  test("a plain command is accepted without starting the shell's parser", async () => {
    rmSync(join(dir, "ran"), { force: true });
    expect(await syntaxProblem("bash", "cd /tmp && ls -la | head")).toBeNull();
    expect(existsSync(join(dir, "ran"))).toBe(false);
  });

  test("any other command still goes to the shell's parser, which says what is wrong", async () => {
    rmSync(join(dir, "ran"), { force: true });
    expect(await syntaxProblem("bash", "if true; then echo 'x'")).toContain("syntax error");
    expect(existsSync(join(dir, "ran"))).toBe(true);
    rmSync(join(dir, "ran"), { force: true });
    expect(await syntaxProblem("bash", "echo 'fine'")).toBeNull();
    expect(existsSync(join(dir, "ran"))).toBe(true);
  });

  test("with parsers started ahead, the next check uses the one waiting, gives the same verdicts, and dispose stops it", async () => {
    const spares = new ParserSpares();
    try {
      rmSync(join(dir, "ran"), { force: true });
      expect(await syntaxProblem("bash", "echo 'first'", spares)).toBeNull();
      expect(existsSync(join(dir, "ran"))).toBe(true); // none was waiting: one started for it
      rmSync(join(dir, "ran"), { force: true });
      spares.refillSoon();
      // The next parser starts on a later turn: polled until it has, bounded.
      for (let i = 0; i < 400 && !(spares.sparePid !== null && existsSync(join(dir, "ran"))); i++) await Bun.sleep(5);
      const ahead = spares.sparePid;
      expect(ahead).not.toBeNull();
      rmSync(join(dir, "ran"), { force: true });
      // An incomplete command is still refused, by the parser that was waiting (none started now).
      expect(await syntaxProblem("bash", "if true; then echo 'x'", spares)).toContain("syntax error");
      expect(existsSync(join(dir, "ran"))).toBe(false);
      expect(spares.sparePid).toBeNull();
      spares.refillSoon();
      for (let i = 0; i < 400 && spares.sparePid === null; i++) await Bun.sleep(5);
      const waiting = spares.sparePid!;
      expect(waiting).not.toBe(ahead);
      spares.dispose();
      expect(await processGone(waiting)).toBe(true);
      expect(spares.sparePid).toBeNull();
      // After dispose no parser is started ahead; checks still work (each starts its own).
      spares.refillSoon();
      expect(await syntaxProblem("bash", "echo \"$(", spares)).not.toBeNull();
    } finally {
      spares.dispose();
    }
  });
});
