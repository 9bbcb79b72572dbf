// What every JSON-RPC client of the daemon does the same way, whatever carries the bytes (Bun's
// socket in rpc-client.ts, node:net in the npm package's portable client): how a call becomes
// request frames, and how a reply settles the call it answers. Plain TypeScript, no runtime APIs.
import { TuiwrightError } from "../protocol/errors.ts";
import type { JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { MAX_FRAME_BYTES } from "./ndjson.ts";
import { typeRequests } from "./typing-chunks.ts";

export { combineTypeResults } from "./typing-chunks.ts";

const encoder = new TextEncoder();

export type Pending = { resolve(value: unknown): void; reject(error: TuiwrightError): void };

/** The params of each request one call becomes: long `type`/`paste` text goes out in pieces. */
export function requestsFor(method: string, params: unknown): unknown[] {
  const text = (params as { text?: unknown } | null)?.text;
  if ((method === "type" || method === "paste") && typeof text === "string") return typeRequests(params as { text: string });
  return [params];
}

/** One request's frame. The daemon discards an oversized frame without knowing its id, so the
 * call would never be answered: it is refused here, before anything is sent. */
export function requestFrame(method: string, envelope: object): string {
  const frame = JSON.stringify(envelope) + "\n";
  const bytes = encoder.encode(frame).length; // TextEncoder: the same on Bun, Node and Deno
  if (bytes > MAX_FRAME_BYTES) {
    throw new TuiwrightError("bad-data", `request of ${bytes} bytes exceeds the 1 MiB frame limit (${method})`, {
      hint: "send less in one request: split the text, manifest or batch",
    });
  }
  return frame;
}

/** Settles the call a reply answers. An error with no id (the daemon could not read one of our
 * frames and cannot say which) fails every call in flight rather than leave one waiting forever. */
export function settleReply(message: JsonRpcResponse, pending: Map<number, Pending>): void {
  if (message.id === null && "error" in message) {
    const error = TuiwrightError.fromJsonRpc(message.error);
    for (const call of pending.values()) call.reject(error);
    pending.clear();
    return;
  }
  const call = typeof message.id === "number" ? pending.get(message.id) : undefined;
  if (!call) return;
  pending.delete(message.id as number);
  if ("error" in message) call.reject(TuiwrightError.fromJsonRpc(message.error));
  else call.resolve(message.result);
}
