// Seeded fuzzing of the daemon's socket: malformed JSON, mutated envelopes, params of the wrong
// shape for every method, invalid UTF-8, deep nesting, 2 MiB lines, batches, and half frames
// from clients that hang up. Every frame with an id must get exactly one answer with a code
// from the error table (never internal), and afterwards the daemon and its session are healthy.
// FUZZ_FRAMES sets the count (the suite runs 4000; `bun run fuzz` runs 100000), FUZZ_SEED the seed.
import { toJsonSchema } from "@valibot/to-json-schema";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ERRORS } from "../../lib/protocol/errors.ts";
import { METHODS } from "../../lib/protocol/methods.ts";
import { World } from "../helpers/harness.ts";
import { fuzzSeed, Prng } from "../helpers/prng.ts";
import { RawSocket } from "../helpers/raw-socket.ts";

const FRAMES = Number(process.env.FUZZ_FRAMES ?? 4000);
const ROUND = 250;
const KNOWN_CODES = new Set(Object.values(ERRORS).map((e) => e.code));
const INTERNAL = ERRORS.internal.code;
// Methods that would end the target session, stop the daemon or need a connection of their own.
const EXCLUDED = new Set(["daemon.stop", "debug.crashWorker", "kill", "end", "reset", "signal", "subscribe", "unsubscribe"]);
const TARGETS = Object.keys(METHODS).filter((m) => !EXCLUDED.has(m));
const FIELDS: Record<string, string[]> = Object.fromEntries(
  TARGETS.map((m) => [m, Object.keys((toJsonSchema((METHODS as any)[m].params, { errorMode: "ignore" }) as any).properties ?? {})]),
);

type Frame = { data: string | Uint8Array; id?: number };

let world: World;
beforeAll(async () => {
  world = await World.start();
  await world.json(["spawn", "--session", "fz", "--no-record", "--", "cat"]);
});
afterAll(async () => {
  await world[Symbol.asyncDispose]();
});

/** Params for `method`: its real field names with values of any type, sometimes junk. */
function params(rng: Prng, method: string): unknown {
  if (rng.chance(0.05)) return rng.json(2);
  const object: Record<string, unknown> = {};
  for (const field of FIELDS[method] ?? []) if (rng.chance(0.5)) object[field] = rng.json(2);
  if (rng.chance(0.1)) object[rng.string(6)] = rng.json(1);
  if (rng.chance(0.6)) object.session = "fz";
  if (method === "spawn") {
    // Reach validation, never a real program or a file of the fuzzer's choosing.
    object.cwd = "/nonexistent/fuzz";
    delete object.cast;
  }
  if (method === "wait" && typeof object.timeoutMs !== "number") object.timeoutMs = 20; // not the 10 s default
  return boundWaits(object);
}

/** Any wait that passes validation must end quickly, so the round's answers arrive. */
function boundWaits(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  for (const [key, inner] of Object.entries(value)) {
    if (/timeout|idle|grace|ttl/i.test(key) && typeof inner === "number") (value as any)[key] = Math.min(Math.abs(inner), 30);
    else boundWaits(inner);
  }
  if ("wait" in value || (value as any).text || (value as any).regex) (value as any).timeoutMs ??= 20;
  if (typeof (value as any).wait === "object" && (value as any).wait !== null) (value as any).wait.timeoutMs ??= 20;
  return value;
}

function request(rng: Prng, id: number): Record<string, unknown> {
  const method = rng.chance(0.95) ? rng.pick(TARGETS) : rng.string(8);
  return { jsonrpc: "2.0", id, method, params: params(rng, method) };
}

function frame(rng: Prng, id: number): Frame {
  const kind = rng.int(100);
  if (kind < 50) return { data: JSON.stringify(request(rng, id)) + "\n", id };
  if (kind < 65) {
    // A mutated envelope: the answer's id is ours only if the id survived intact.
    const message = request(rng, id);
    const key = rng.pick(["jsonrpc", "method", "params", "id", "clientVersion"]);
    message[key] = rng.json(2);
    const survived = key !== "id" || message.id === id;
    if (!survived) message.id = rng.pick([{}, [], true, false, { id: 1 }]);
    return { data: JSON.stringify(message) + "\n", id: survived ? id : undefined };
  }
  if (kind < 80) {
    // Bytes mutated anywhere: may or may not still parse, so no id is expected back.
    // A string id: mutation cannot turn it into another frame's numeric id.
    const text = rng.mutate(JSON.stringify({ ...request(rng, id), id: `m${id}` })).replaceAll("\n", " ");
    return { data: (text.trim() === "" ? "x" : text) + "\n" };
  }
  if (kind < 85) {
    const bytes = Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"type","params":{"session":"fz","text":"ab"}}\n`);
    bytes[bytes.indexOf("ab")] = rng.pick([0xff, 0xc3, 0xed, 0x80]);
    return { data: bytes, id };
  }
  if (kind < 90) {
    const depth = rng.pick([64, 1000, 100_000]);
    const open = rng.chance(0.5) ? "[" : '{"a":';
    const close = open === "[" ? "]" : "}";
    return { data: `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"x":${open.repeat(depth)}1${close.repeat(depth)}}}\n`, id: depth < 100_000 ? id : undefined };
  }
  if (kind < 95) {
    const batch = Array.from({ length: 1 + rng.int(4) }, (_, i) => request(rng, id * 10 + i));
    return { data: JSON.stringify(batch) + "\n", id: -id };
  }
  return { data: JSON.stringify({ jsonrpc: "2.0", id, method: "type", params: { session: "fz", text: rng.string(40).repeat(1 + rng.int(200)) } }) + "\n", id };
}

/** Answers by code ("ok" for results): shows the fuzzer reaches the handlers, not just the parser. */
const tally = new Map<string, number>();

function checkAnswer(answer: any, seed: number): void {
  expect(answer.jsonrpc).toBe("2.0");
  const key = "error" in answer ? String(answer.error?.code) : "ok";
  tally.set(key, (tally.get(key) ?? 0) + 1);
  if ("error" in answer) {
    if (!KNOWN_CODES.has(answer.error.code) || answer.error.code === INTERNAL) {
      throw new Error(`seed ${seed}: answer outside the error table: ${JSON.stringify(answer).slice(0, 500)}`);
    }
  } else expect("result" in answer).toBe(true);
}

test(`${FRAMES} fuzzed frames: every request answered from the error table, the daemon stays healthy`, async () => {
  const rng = new Prng(fuzzSeed());
  const raw = await RawSocket.open(world.socketPath);
  let nextId = 1;
  let answered = 0;
  const answeredIds = new Set<number>();
  for (let start = 0; start < FRAMES; start += ROUND) {
    const pending = new Set<number>();
    for (let i = start; i < Math.min(FRAMES, start + ROUND); i++) {
      const f = frame(rng, nextId++);
      raw.send(f.data);
      if (f.id !== undefined) pending.add(f.id);
    }
    if (rng.chance(0.3)) raw.send("x".repeat(2 * 1024 * 1024) + "\n");
    if (rng.chance(0.3)) {
      // A client that sends half a frame and hangs up.
      const quitter = await RawSocket.open(world.socketPath);
      quitter.send('{"jsonrpc":"2.0","id":1,"method":"snapshot","params":{"sess');
      quitter.close();
    }
    const sentinel = nextId++;
    raw.send(JSON.stringify({ jsonrpc: "2.0", id: sentinel, method: "ping" }) + "\n");
    pending.add(sentinel);
    while (pending.size > 0) {
      const answer = await raw.next();
      if (Array.isArray(answer)) {
        for (const item of answer) checkAnswer(item, rng.seed);
        const ids = answer.map((a: any) => a.id).filter((x: unknown) => typeof x === "number");
        pending.delete(-Math.floor(Math.min(...ids) / 10));
        answered++;
        continue;
      }
      if ("method" in answer) continue; // a notification
      checkAnswer(answer, rng.seed);
      if (typeof answer.id === "number") {
        // Mutated bytes may carry an id we did not expect; any id answered twice is a bug.
        if (answeredIds.has(answer.id)) throw new Error(`seed ${rng.seed}: id ${answer.id} answered twice`);
        answeredIds.add(answer.id);
        pending.delete(answer.id);
      }
      answered++;
    }
  }
  expect(raw.closed).toBe(false);
  raw.close();
  expect(answered).toBeGreaterThan(FRAMES / 2);
  console.log(`fuzz seed ${rng.seed}: ${FRAMES} frames, answers by code ${JSON.stringify(Object.fromEntries(tally))}`);
  // Every class of answer is reached: parse errors, bad envelopes, bad params, handler errors, successes.
  const envelope = ["ok", "-32700", "-32600", "-32601", "-32602"];
  for (const code of envelope) expect(tally.get(code) ?? 0).toBeGreaterThan(0);
  expect([...tally.keys()].some((code) => !envelope.includes(code))).toBe(true);

  // Healthy afterwards: the daemon answers, the target session runs and still echoes.
  expect(world.daemon?.exitCode).toBeNull();
  const { sessions } = await world.json(["list"]);
  expect(sessions.find((s: any) => s.name === "fz")?.state).toBe("running");
  // On a line of its own: typed after the fuzzed text, it could wrap across two rows. cat prints
  // the fuzzed bytes back, so the screen may be left in another character set (SO, ESC ( 0):
  // SI and ESC ( B first, which cat prints back too, select ASCII again.
  await world.json(["type", "--session", "fz", "--raw", "--wait-regex", "^still-alive$", "\x0f\x1b(B\rstill-alive\r"]);
  expect(world.daemonLog()).not.toMatch(/internal|TypeError|RangeError|stack/i);
}, 600_000);
