// The build's rewrites of the MCP SDK (scripts/lazy-sdk-schemas.ts): the rewritten types.js
// must behave as the original — same exports, same parse results, same refusals —, the
// rewritten ajv-provider.js must still validate (loading Ajv when first asked), and a file the
// rewrite does not understand must stop the build with a reason.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as original from "@modelcontextprotocol/sdk/types.js";
import { checkedAjvOnUse, checkedLazySchemas, lazifySchemas } from "../../../scripts/lazy-sdk-schemas.ts";

const typesPath = Bun.resolveSync("@modelcontextprotocol/sdk/types.js", import.meta.dir);
const source = await Bun.file(typesPath).text();

/** A rewritten module, loaded from a file of its own (its dependencies resolved from here). */
async function loadFrom<T>(code: string, dependencies: string[]): Promise<T> {
  for (const name of dependencies) code = code.replaceAll(`'${name}'`, JSON.stringify(Bun.resolveSync(name, import.meta.dir)));
  const dir = mkdtempSync(join(tmpdir(), "tuiwright-lazy-sdk-"));
  try {
    writeFileSync(join(dir, "module.js"), code);
    return await import(join(dir, "module.js"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const lazy = await loadFrom<typeof original>(checkedLazySchemas(source), ["zod/v4"]);

const MESSAGES: unknown[] = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: { roots: {} }, clientInfo: { name: "t", version: "1" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "spawn", arguments: { argv: ["bash"] }, _meta: { progressToken: 7 } } },
  { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "hi" }, { type: "image", data: "AA==", mimeType: "image/png" }], structuredContent: { a: 1 } } },
  { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "bad" } },
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "timeout" } },
  { jsonrpc: "1.0", id: 1, method: "x" }, // refused by both
  { id: 1 }, // refused by both
];

test("the rewrite keeps every export and turns the schema constants into lazy ones", () => {
  const { rewritten } = lazifySchemas(source);
  expect(rewritten).toBeGreaterThan(100);
  expect(Object.keys(lazy).sort()).toEqual(Object.keys(original).sort());
  expect(lazy.LATEST_PROTOCOL_VERSION).toBe(original.LATEST_PROTOCOL_VERSION);
  expect(lazy.SUPPORTED_PROTOCOL_VERSIONS).toEqual(original.SUPPORTED_PROTOCOL_VERSIONS);
});

test("lazy schemas parse and refuse exactly as the SDK's own", () => {
  for (const message of MESSAGES) {
    const want = original.JSONRPCMessageSchema.safeParse(message);
    const got = lazy.JSONRPCMessageSchema.safeParse(message);
    expect(got.success).toBe(want.success);
    expect(got.data).toEqual(want.data);
    expect(lazy.isInitializeRequest(message)).toBe(original.isInitializeRequest(message));
    expect(lazy.isJSONRPCRequest(message)).toBe(original.isJSONRPCRequest(message));
  }
  const result = { content: [{ type: "text", text: "x" }], structuredContent: { n: 1 }, isError: false };
  expect(lazy.CallToolResultSchema.parse(result)).toEqual(original.CallToolResultSchema.parse(result));
  expect(lazy.CallToolResultSchema.safeParse({ content: [{ type: "nope" }] }).success).toBe(false);
});

test("a lazy schema is a zod schema to the SDK's own helpers: shape, extend, instanceof, the method literal", () => {
  const shape = (lazy.CallToolRequestSchema as unknown as { shape: { method: { value: string } } }).shape;
  expect(shape.method.value).toBe("tools/call");
  const extended = lazy.ResultSchema.extend({ extra: (original.CursorSchema as typeof lazy.CursorSchema) });
  expect(extended.parse({ extra: "c" })).toEqual({ extra: "c" });
  expect(lazy.InitializeRequestSchema instanceof (original.InitializeRequestSchema.constructor as new () => unknown)).toBe(true);
  expect(typeof lazy.ProgressNotificationSchema.parse).toBe("function");
});

test("the rewritten ajv-provider.js loads Ajv when a validator is first made, and validates as before", async () => {
  const providerPath = Bun.resolveSync("@modelcontextprotocol/sdk/validation/ajv", import.meta.dir);
  const provider = await Bun.file(providerPath).text();
  const rewritten = checkedAjvOnUse(provider);
  expect(rewritten).not.toContain("import Ajv from");
  const { AjvJsonSchemaValidator } = await loadFrom<typeof import("@modelcontextprotocol/sdk/validation/ajv")>(rewritten, ["ajv", "ajv-formats"]);
  const check = new AjvJsonSchemaValidator().getValidator<{ at: string }>({ type: "object", properties: { at: { type: "string", format: "date-time" } }, required: ["at"] });
  expect(check({ at: "2026-11-23T08:00:00Z" })).toMatchObject({ valid: true });
  expect(check({ at: "yesterday" })).toMatchObject({ valid: false }); // ajv-formats is in force
  expect(check({})).toMatchObject({ valid: false });
  expect(() => checkedAjvOnUse("import Ajv from 'ajv';\nexport class AjvJsonSchemaValidator {}\n")).toThrow(/no longer starts with the Ajv and ajv-formats imports/);
});

test("a types.js whose layout the rewrite does not know stops the build with a reason", () => {
  expect(() => checkedLazySchemas("import * as z from 'zod/v4';\nexport const ASchema = z.object({});\n")).toThrow(/only 1 schema constants found/);
  expect(() => lazifySchemas("export const ASchema = z.object({\n")).toThrow(/no end found/);
  // Valid JavaScript, but a line ends in ";" mid-statement with the next at column 0: the cut is wrong and caught.
  const unusual = "import * as z from 'zod/v4';\nexport const ASchema = z.string().refine((v) => { const a = v;\nif (a) return true; return false; });\n";
  expect(() => checkedLazySchemas(unusual)).toThrow(/does not parse/);
});
