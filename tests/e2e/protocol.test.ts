import { afterAll, beforeAll, expect, test } from "bun:test";
import { World } from "../helpers/harness.ts";
import { RawSocket } from "../helpers/raw-socket.ts";

let world: World;
let raw: RawSocket;
beforeAll(async () => {
  world = await World.start();
  raw = await RawSocket.open(world.socketPath);
});
afterAll(async () => {
  raw.close();
  await world[Symbol.asyncDispose]();
});

test("malformed JSON is a parse error (-32700) with a null id, and the connection lives on", async () => {
  raw.send('{"jsonrpc":"2.0","id":1,"method":"ping"\n');
  const answer = await raw.next();
  expect(answer.id).toBeNull();
  expect(answer.error.code).toBe(-32700);
  expect(answer.error.message).toStartWith("parse error:");
  expect((await raw.call({ jsonrpc: "2.0", id: 2, method: "ping" })).result.pong).toBe(true);
});

test("an envelope that is not a request is -32600", async () => {
  expect((await raw.call({ id: 3, method: "ping" })).error).toMatchObject({ code: -32600, message: 'invalid request: jsonrpc must be "2.0"' });
  expect((await raw.call({ jsonrpc: "2.0", id: 4, method: 5 })).error.code).toBe(-32600);
  expect((await raw.call({ jsonrpc: "2.0", id: 5, method: "ping", params: "x" })).error.code).toBe(-32600);
  expect((await raw.call(42)).error.code).toBe(-32600);
});

test("unknown method is -32601 and names the method", async () => {
  const answer = await raw.call({ jsonrpc: "2.0", id: 6, method: "frobnicate" });
  expect(answer).toMatchObject({ id: 6, error: { code: -32601, message: 'unknown method "frobnicate"', data: { name: "method-not-found" } } });
});

test("wrong param types are -32602 with the path of the bad field", async () => {
  const answer = await raw.call({ jsonrpc: "2.0", id: 7, method: "spawn", params: { argv: ["true"], cols: "wide", rows: 0 } });
  expect(answer.error.code).toBe(-32602);
  expect(answer.error.data.issues.map((i: any) => i.path)).toEqual(["cols", "rows"]);
  expect(answer.error.message).toContain("cols:");
  const unknownKey = await raw.call({ jsonrpc: "2.0", id: 8, method: "snapshot", params: { formt: "text" } });
  expect(unknownKey.error.code).toBe(-32602);
  expect(unknownKey.error.data.issues[0].path).toBe("formt");
  const nested = await raw.call({ jsonrpc: "2.0", id: 9, method: "press", params: { keys: ["a"], wait: { text: [5] } } });
  expect(nested.error.data.issues[0].path).toBe("wait.text.0");
});

test("a frame over 1 MiB is rejected without killing the connection's other requests", async () => {
  const big = JSON.stringify({ jsonrpc: "2.0", id: 10, method: "ping", params: { pad: "x".repeat(1.5 * 1024 * 1024) } });
  raw.send(big + "\n" + JSON.stringify({ jsonrpc: "2.0", id: 11, method: "ping" }) + "\n");
  const first = await raw.next();
  expect(first.id).toBeNull();
  expect(first.error.code).toBe(-32600);
  expect(first.error.message).toContain("exceeds the 1048576-byte limit");
  const second = await raw.next();
  expect(second).toMatchObject({ id: 11, result: { pong: true } });
  expect(raw.closed).toBe(false);
});

test("a batch gets one array back; notifications in it get no answer; an empty batch is -32600", async () => {
  raw.send(JSON.stringify([
    { jsonrpc: "2.0", id: "a", method: "ping" },
    { jsonrpc: "2.0", method: "ping" },
    { jsonrpc: "2.0", id: "b", method: "nope" },
    { jsonrpc: "1.0", id: "c", method: "ping" },
  ]) + "\n");
  const answers = await raw.next();
  expect(answers).toHaveLength(3);
  const byId = Object.fromEntries(answers.map((a: any) => [a.id, a]));
  expect(byId.a.result.pong).toBe(true);
  expect(byId.b.error.code).toBe(-32601);
  expect(byId.c.error.code).toBe(-32600);
  expect((await raw.call([])).error.code).toBe(-32600);
});

test("responses come back out of order: a slow wait does not hold up a ping sent after it", async () => {
  const { name } = await world.spawn(["sh", "-c", "read line; echo got-$line; read x"]);
  raw.send(JSON.stringify({ jsonrpc: "2.0", id: "slow", method: "wait", params: { session: name, text: ["got-go"], timeoutMs: 5000 } }) + "\n");
  raw.send(JSON.stringify({ jsonrpc: "2.0", id: "fast", method: "ping" }) + "\n");
  expect((await raw.next()).id).toBe("fast");
  await world.json(["type", "--session", name, "go\r"]);
  const slow = await raw.next();
  expect(slow.id).toBe("slow");
  expect(slow.result.fired).toEqual(['text "got-go"']);
});

test("two clients at once are served independently", async () => {
  const other = await RawSocket.open(world.socketPath);
  other.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "list" }) + "\n");
  raw.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) + "\n");
  const [mine, theirs] = await Promise.all([raw.next(), other.next()]);
  expect(mine.result.pong).toBe(true);
  expect(Array.isArray(theirs.result.sessions)).toBe(true);
  other.close();
});

test("capabilities lists every method with JSON Schemas and the whole error table", async () => {
  const caps = (await raw.call({ jsonrpc: "2.0", id: 12, method: "capabilities" })).result;
  const { METHODS } = await import("../../lib/protocol/methods.ts");
  const { ERRORS } = await import("../../lib/protocol/errors.ts");
  const { COMPAT_TABLES, listedName } = await import("../../lib/protocol/compat/index.ts");
  // Each seed document's names too, with aliasOf; those that are also core names as PREFIX.NAME.
  const compat = COMPAT_TABLES.flatMap((table) => Object.keys(table.aliases).map((name) => listedName(table, name)));
  expect(caps.methods.map((m: any) => m.name).sort()).toEqual([...Object.keys(METHODS), ...compat].sort());
  const spawn = caps.methods.find((m: any) => m.name === "spawn");
  expect(spawn.params.required ?? []).toEqual([]); // argv, shell or browser
  expect(Object.keys(spawn.params.properties)).toEqual(expect.arrayContaining(["argv", "shell", "browser", "integration", "cast"]));
  expect(spawn.params.properties.cols).toMatchObject({ type: "integer", minimum: 2, maximum: 1000 }); // default 120, 140 for a browser
  expect(caps.errors.map((e: any) => e.name).sort()).toEqual(Object.keys(ERRORS).sort());
  expect(caps.keys).toContain("PageDown");
  expect(caps.formats).toEqual(["text", "ansi", "cells", "outline", "svg", "png"]);
  expect(caps.methods.find((m: any) => m.name === "go_back")).toMatchObject({ aliasOf: "back", document: "awi-tty-carbonyl-agent-socket" });
  expect(caps.methods.find((m: any) => m.name === "awi.navigate")).toMatchObject({ aliasOf: "navigate" });
});

test("a notification (no id) runs but gets no answer", async () => {
  raw.send(JSON.stringify({ jsonrpc: "2.0", method: "ping" }) + "\n");
  expect((await raw.call({ jsonrpc: "2.0", id: 13, method: "ping" })).id).toBe(13);
});
