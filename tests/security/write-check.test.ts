// Finding 3/5's principle as a rule: a file written anywhere but the safe writer fails the
// check (scripts/check-writes.ts, run by scripts/test.sh) — the AWI façade's `Bun.write(out, …)`
// was exactly such a line.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { checkWrites, EXCEPTIONS } from "../../scripts/check-writes.ts";

const read = (file: string) => readFileSync(resolve(import.meta.dir, "../..", file), "utf8");

test("the shipped code writes files only through the safe writer (or a listed exception with its reason)", () => {
  expect(checkWrites()).toEqual([]);
  for (const reason of Object.values(EXCEPTIONS)) expect(reason.length).toBeGreaterThan(40);
});

test("a planted Bun.write to a path, writeFileSync, appendFileSync or an openSync that creates fails, naming file and line", () => {
  const awi = read("lib/cli/awi-tty.ts");
  const planted = checkWrites({ "lib/cli/awi-tty.ts": `${awi}\nawait Bun.write(out, text);\n` });
  expect(planted).toHaveLength(1);
  expect(planted[0]).toStartWith(`lib/cli/awi-tty.ts:${awi.split("\n").length + 1}: writes a file outside the safe writer: await Bun.write(out, text);`);
  for (const line of ['writeFileSync(file, "x");', 'appendFileSync(file, "x");', 'const fd = openSync(file, "w");', "openSync(file, constants.O_WRONLY | constants.O_CREAT);", "await writeFile(file, data);"]) {
    expect(checkWrites({ "lib/record/report.ts": `${read("lib/record/report.ts")}\n${line}\n` })).toHaveLength(1);
  }
  // Standard output and reading are fine.
  expect(checkWrites({ "lib/record/report.ts": `${read("lib/record/report.ts")}\nawait Bun.write(Bun.stdout, "x");\nopenSync(file, "r");\nopenSync(file);\nopenSync(file, constants.O_RDONLY | constants.O_NONBLOCK);\n` })).toEqual([]);
});

test("an openSync whose flags are not a literal read-only open (a variable, an expression, a call cut across lines) fails", () => {
  const report = read("lib/record/report.ts");
  for (const line of ["const fd = openSync(file, flags);", "openSync(file, flags | constants.O_NONBLOCK, 0o600);", "openSync(join(dir, name), mode());", "openSync(file,"]) {
    const planted = checkWrites({ "lib/record/report.ts": `${report}\n${line}\n` });
    expect(planted).toHaveLength(1);
    expect(planted[0]).toStartWith(`lib/record/report.ts:${report.split("\n").length + 1}: writes a file outside the safe writer: ${line}`);
  }
  // The app file API's open takes its flags in a variable: it is an exception with its reason,
  // for that file and that line only — changed, it fails again.
  const confined = read("lib/desktop/confined-files.ts");
  expect(confined).toContain("openSync(path, flags | constants.O_NONBLOCK, 0o600)");
  expect(checkWrites({ "lib/desktop/confined-files.ts": confined })).toEqual([]);
  expect(checkWrites({ "lib/desktop/confined-files.ts": confined.replace("flags | constants.O_NONBLOCK, 0o600", "flags, 0o600") })).toHaveLength(1);
});

test("importing open from node:fs/promises (it opens with any flags) fails outside its listed exception", () => {
  const report = read("lib/record/report.ts");
  for (const line of ['import { open } from "node:fs/promises";', "import { readFile, open } from 'fs/promises';"]) {
    const planted = checkWrites({ "lib/record/report.ts": `${line}\n${report}` });
    expect(planted).toHaveLength(1);
    expect(planted[0]).toStartWith(`lib/record/report.ts:1: writes a file outside the safe writer: ${line}`);
  }
  expect(checkWrites({ "lib/record/report.ts": `import { readFile } from "node:fs/promises";\n${report}` })).toEqual([]);
  // The cgroup move's open (session-cgroups.ts) is the exception, for that file only.
  expect(checkWrites({ "lib/runtime/session-cgroups.ts": read("lib/runtime/session-cgroups.ts") })).toEqual([]);
});
