// The CLI escapes program text only when it writes to a terminal: isTerminal must say yes on a
// pseudo-terminal and no on a pipe, a file and /dev/null (it reads the fd's /proc link, not node:tty).
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "tw-isterm-"));
const probe = join(dir, "probe.ts");
writeFileSync(probe, `import { isTerminal } from ${JSON.stringify(new URL("../../../lib/runtime/stdio.ts", import.meta.url).pathname)};\nconsole.error(JSON.stringify({ stdout: isTerminal("stdout") }));\n`);

const answer = (stderr: string) => JSON.parse(/\{.*\}/.exec(stderr)![0]).stdout as boolean;

test("isTerminal: a pseudo-terminal is a terminal; a pipe, a file and /dev/null are not", () => {
  try {
    // `script` runs the probe on a real PTY; its stderr goes to the same PTY, copied to script's stdout.
    const onPty = Bun.spawnSync(["script", "-qec", `${process.execPath} ${probe}`, "/dev/null"], { stdout: "pipe", stderr: "pipe" });
    expect(answer(onPty.stdout.toString())).toBe(true);
    const onPipe = Bun.spawnSync([process.execPath, probe], { stdout: "pipe", stderr: "pipe" });
    expect(answer(onPipe.stderr.toString())).toBe(false);
    const file = join(dir, "out.txt");
    const onFile = Bun.spawnSync([process.execPath, probe], { stdout: Bun.file(file), stderr: "pipe" });
    expect(answer(onFile.stderr.toString())).toBe(false);
    const onNull = Bun.spawnSync([process.execPath, probe], { stdout: "ignore", stderr: "pipe" });
    expect(answer(onNull.stderr.toString())).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
