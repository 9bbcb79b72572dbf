// Seeded fuzzing of the command line: random verbs, flags and values against a live daemon with
// a session to act on (with --json the error is JSON on stdout). Every run must end with an exit code of the sysexits table (never 70,
// internal), print no stack trace, and leave the daemon answering.
// FUZZ_RUNS sets the count (the suite runs 240), FUZZ_SEED the seed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { helpEntries } from "../../lib/cli/help-entries.ts";
import { GLOBAL_FLAGS } from "../../lib/cli/invocation.ts";
import { World } from "../helpers/harness.ts";
import { fuzzSeed, Prng } from "../helpers/prng.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 240);
const EXITS = new Set([0, 1, 64, 65, 66, 69, 74, 75, 77, 124]);
// Verbs that serve forever (daemon run, mcp, events), read stdin (batch) or run programs (run).
const EXCLUDED = new Set(["daemon", "mcp", "events", "batch", "run"]);
const VERBS = helpEntries().filter((entry) => !EXCLUDED.has(entry.name.split(" ")[0]!));
const VALUES = ["0", "-1", "3", "80", "99999999999999999999", "abc", "", "@e1", "@vim.mode", "/a(/", "/x/i", "button[name=", "C-c", "Enter", "F13", "1,2", "c", "ghost", "é中😀", "--", "-", "text", "outline", "png", "SIGTERM"];

let world: World;
beforeAll(async () => {
  world = await World.start();
  await world.json(["spawn", "--session", "c", "--no-record", "--", "cat"]);
});
afterAll(async () => {
  await world[Symbol.asyncDispose]();
});

function argv(rng: Prng): string[] {
  const verb = rng.pick(VERBS);
  const args = verb.name.split(" ");
  const flags = [...verb.flags, ...GLOBAL_FLAGS.map((f) => ({ ...f, type: f.value ? "string" : "bool" }))];
  for (let i = rng.int(5); i > 0; i--) {
    if (rng.chance(0.6) && flags.length > 0) {
      const flag = rng.pick(flags);
      args.push(flag.name);
      if (flag.type !== "bool" || rng.chance(0.1)) args.push(rng.pick(VALUES));
    } else args.push(rng.chance(0.5) ? rng.pick(VALUES) : rng.string(6));
  }
  // `--` would hand the rest to a program; waits must end fast.
  const safe = args.filter((a) => a !== "--").map((a) => a.replaceAll("\0", "0")); // argv cannot hold NUL
  if (verb.flags.some((f) => f.name === "--timeout")) safe.push("--timeout", "50");
  return safe;
}

test(`${RUNS} fuzzed command lines end with a sysexits code and no stack trace`, async () => {
  const rng = new Prng(fuzzSeed());
  const runs = Array.from({ length: RUNS }, () => argv(rng));
  const codes = new Map<number, number>();
  for (let start = 0; start < runs.length; start += 8) {
    const results: { args: string[]; code: number; stderr: string; stdout: string }[] = await Promise.all(runs.slice(start, start + 8).map(async (args) => ({ args, ...(await world.run(args, { env: { TUIWRIGHT_SESSION: "c" } })) })));
    for (const { args, code, stderr, stdout } of results) {
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (!EXITS.has(code) || /TypeError|RangeError|ReferenceError|\n\s+at /.test(stderr)) {
        throw new Error(`seed ${rng.seed}: tuiwright ${JSON.stringify(args)} exited ${code}:\n${stderr}`);
      }
      if (code !== 0 && code !== 1 && code !== 124 && stderr.trim() === "" && !stdout.includes('"error"')) {
        throw new Error(`seed ${rng.seed}: tuiwright ${JSON.stringify(args)} exited ${code} without saying why`);
      }
    }
  }
  console.log(`cli fuzz seed ${rng.seed}: ${RUNS} runs, exit codes ${JSON.stringify(Object.fromEntries(codes))}`);
  expect(codes.get(64) ?? 0).toBeGreaterThan(0);
  expect(codes.get(0) ?? 0).toBeGreaterThan(0);
  expect((await world.run(["ping"])).code).toBe(0);
}, 600_000);
