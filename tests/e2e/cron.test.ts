// The crontab line of docs/cron.md, run as cron runs it: `env -i` with PATH=/usr/bin:/bin only (no
// HOME, no XDG variables, no TERM), no controlling terminal (setsid), stdin from /dev/null.
// Only the paths in it are swapped for test ones (binary, batch file, log, namespace); the
// state lands in the passwd entry's home, as it would under cron.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import { BIN } from "../helpers/harness.ts";

const ROOT = resolve(import.meta.dir, "../..");
const GUIDE = readFileSync(join(ROOT, "docs/cron.md"), "utf8");
const CRONTAB = /```crontab\n(.+)\n```/.exec(GUIDE)![1]!;
const BATCH = /```text nightly\.tw\n([\s\S]+?)```/.exec(GUIDE)![1]!;
const NAMESPACE = `nightly-test-${process.pid}`;
// Cron's passwd-home behaviour (lib/runtime/paths.ts): no HOME means the passwd entry's home.
const STATE = join(userInfo().homedir, ".local/state/tuiwright", NAMESPACE);
let dir: string;

/** The crontab line's command (after the five time fields), with the test's paths. */
function cronCommand(batchFile: string, log: string): string {
  const command = CRONTAB.trim().split(/\s+/).slice(5).join(" ");
  const swapped = command
    .replace("/usr/local/bin/tuiwright", BIN)
    .replace("--ns nightly ", `--ns ${NAMESPACE} `)
    .replace("/etc/tuiwright/nightly.tw", batchFile)
    .replace("/var/tmp/tuiwright-nightly.log", log);
  expect(swapped).not.toBe(command);
  return swapped;
}

async function asCron(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "/usr/bin/setsid", "-w", "/bin/sh", "-c", command], {
    cwd: "/", stdin: "ignore", stdout: "pipe", stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tw-cron-"));
});

afterAll(async () => {
  await asCron(`${BIN} --ns ${NAMESPACE} daemon stop`);
  rmSync(STATE, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

test("the crontab line of docs/cron.md succeeds under env -i with no HOME and no terminal, and records the run", async () => {
  expect(existsSync(STATE)).toBe(false);
  const batchFile = join(dir, "nightly.tw");
  const log = join(dir, "nightly.log");
  writeFileSync(batchFile, BATCH);
  const run = await asCron(cronCommand(batchFile, log));
  const output = readFileSync(log, "utf8");
  expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 0, stdout: "", stderr: "" });
  const lines = output.trim().split("\n").map((line) => JSON.parse(line));
  expect(lines.map((l) => l.ok)).toEqual(BATCH.trim().split("\n").map(() => true));
  expect(lines[4].result.fired).toEqual(["text \"checked by cron\""]);
  // The recording is where cron's user keeps state: the passwd home.
  const casts = readdirSync(join(STATE, "casts"));
  expect(casts).toHaveLength(1);
  expect(readFileSync(join(STATE, "casts", casts[0]!), "utf8")).toContain("checked by cron");
}, 60_000);

test("a failing check makes the crontab command exit non-zero with the failure in its log", async () => {
  const batchFile = join(dir, "failing.tw");
  const log = join(dir, "failing.log");
  writeFileSync(batchFile, BATCH.replace("wait --session nightly --text 'checked by cron'", "wait --session nightly --text 'never shown' --timeout 300"));
  const run = await asCron(cronCommand(batchFile, log));
  expect(run.code).toBe(124);
  const failed = readFileSync(log, "utf8").trim().split("\n").map((line) => JSON.parse(line)).find((l) => !l.ok);
  expect(failed).toMatchObject({ line: 5, exit: 124 });
  expect(JSON.stringify(failed.error)).toContain("never shown");
}, 60_000);
