// JSON-RPC 2.0 envelopes. Plain TypeScript (no valibot) so the thin client can use it.
import { TuiwrightError } from "./errors.ts";

export type JsonRpcId = string | number | null;

/** `clientVersion` is our extension: the sender's build, refused by a daemon of another one. */
export type JsonRpcRequest = { jsonrpc: "2.0"; id?: JsonRpcId; method: string; params?: unknown; clientVersion?: string };

export type JsonRpcError = { code: number; message: string; data?: unknown };

export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: JsonRpcId; result: unknown }
  | { jsonrpc: "2.0"; id: JsonRpcId; error: JsonRpcError };

export type JsonRpcNotification = { jsonrpc: "2.0"; method: string; params?: unknown };

export function errorResponse(id: JsonRpcId, error: TuiwrightError): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: error.toJsonRpc() };
}

function isId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Checks the envelope (not the params); returns the request or the error to answer with. */
export function checkRequest(value: unknown): { request: JsonRpcRequest } | { error: TuiwrightError; id: JsonRpcId } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { id: null, error: new TuiwrightError("invalid-request", "invalid request: expected a JSON object") };
  }
  const record = value as Record<string, unknown>;
  const id = isId(record.id) ? record.id : null;
  if ("id" in record && !isId(record.id)) {
    return { id: null, error: new TuiwrightError("invalid-request", "invalid request: id must be a string, a number or null") };
  }
  // JSON numbers past 2^53 lose digits when parsed: the id echoed would not be the one sent.
  if (typeof record.id === "number" && Math.abs(record.id) > Number.MAX_SAFE_INTEGER) {
    return { id: null, error: new TuiwrightError("invalid-request", "invalid request: a numeric id must be within ±(2^53-1); send larger ids as strings", { details: { id: String(record.id) } }) };
  }
  if (record.jsonrpc !== "2.0") return { id, error: new TuiwrightError("invalid-request", 'invalid request: jsonrpc must be "2.0"') };
  if (typeof record.method !== "string") return { id, error: new TuiwrightError("invalid-request", "invalid request: method must be a string") };
  if ("params" in record && (typeof record.params !== "object" || record.params === null)) {
    return { id, error: new TuiwrightError("invalid-request", "invalid request: params must be an object or an array") };
  }
  if ("clientVersion" in record && typeof record.clientVersion !== "string") {
    return { id, error: new TuiwrightError("invalid-request", "invalid request: clientVersion must be a string") };
  }
  return { request: record as JsonRpcRequest };
}
