import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CastRecorder } from "../../../lib/record/cast-recorder.ts";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function recorder(): CastRecorder {
  dir = mkdtempSync(join(tmpdir(), "tw-cast-"));
  return CastRecorder.create(join(dir, "x.cast"), { cols: 10, rows: 3, command: "x", title: "t", env: {} });
}
const output = (r: CastRecorder) => readFileSync(r.path, "utf8").trim().split("\n").slice(1).map((l) => JSON.parse(l)).filter((e) => e[1] === "o").map((e) => e[2]);
const bytes = (s: string) => new TextEncoder().encode(s);

test("a character split across reads is written whole, in one event", () => {
  const r = recorder();
  const euro = bytes("€!");
  r.output(euro.subarray(0, 1));
  r.output(euro.subarray(1, 2));
  r.output(euro.subarray(2));
  expect(output(r)).toEqual(["€!"]);
});

test("secrets are redacted from output, even when split across reads; other text passes at once", () => {
  const r = recorder();
  r.addSecret("hunter2");
  r.output(bytes("pass: hun"));
  expect(output(r)).toEqual(["pass: "]); // "hun" might be the secret: held
  r.output(bytes("ter2 ok"));
  r.output(bytes(" done"));
  expect(output(r).join("")).toBe("pass: ******* ok done");
  r.output(bytes("hunting"));
  r.exit(0, null);
  expect(output(r).join("")).toBe("pass: ******* ok donehunting");
});

test("marker labels are redacted: a wait may name the secret", () => {
  const r = recorder();
  r.addSecret("hunter2");
  r.marker('type "***"; wait text "hunter2"');
  r.exit(0, null);
  const text = readFileSync(r.path, "utf8");
  expect(text).not.toContain("hunter2");
  expect(text).toContain('wait text \\"*******\\"');
});

test("the exit status is the code, or 128 + the signal number", () => {
  const r = recorder();
  r.exit(null, "SIGKILL");
  const events = readFileSync(r.path, "utf8").trim().split("\n").slice(1).map((l) => JSON.parse(l));
  expect(events.at(-1)[1]).toBe("x");
  expect(events.at(-1)[2]).toBe("137");
});

test("past its size cap a recording drops output and input, says so once, and still ends with the exit status", () => {
  dir = mkdtempSync(join(tmpdir(), "tw-cast-"));
  const r = CastRecorder.create(join(dir, "x.cast"), { cols: 10, rows: 3, command: "x", title: "t", env: {} }, undefined, 1000);
  for (let i = 0; i < 100; i++) r.output(bytes(`line ${i}\r\n`));
  r.input("typed");
  r.marker("later");
  r.exit(0, null);
  expect(r.full).toBe(true);
  const events = readFileSync(r.path, "utf8").trim().split("\n").slice(1).map((l) => JSON.parse(l) as [number, string, string]);
  const at = events.findIndex((e) => e[1] === "m" && e[2].startsWith("recording full"));
  expect(events.slice(0, at).every((e) => e[1] === "o")).toBe(true);
  expect(events.slice(at).map((e) => e[1])).toEqual(["m", "o", "m", "x"]);
  expect(readFileSync(r.path).length).toBeLessThan(1000 + 300);
  expect(r.bytes).toBe(readFileSync(r.path).length);
});
