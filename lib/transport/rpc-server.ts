// JSON-RPC 2.0 over NDJSON on a Unix socket: many requests per connection, each answered
// when it finishes (out of order), batches, notifications, and errors that never close the
// connection. What a method does is the dispatcher's business.
import { asTuiwrightError, TuiwrightError } from "../protocol/errors.ts";
import { checkRequest, errorResponse, type JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { listenUnix, type Connection } from "../runtime/unix-socket.ts";
import { partialFrameIdleMs, REPLY_QUEUE_LIMIT_BYTES } from "./connection-limits.ts";
import { LineReader, MAX_FRAME_BYTES } from "./ndjson.ts";

export type CallContext = { connection: Connection; clientVersion?: string; dropped?(reason: string): void };

export type Dispatch = (method: string, params: unknown, context: CallContext) => Promise<unknown>;

export type ServerHooks = {
  opened(connection: Connection): void;
  closed(connection: Connection): void;
  /** The daemon closed a connection for cost reasons (unread replies, a stalled frame). */
  dropped?(connection: Connection, reason: string): void;
};

/** Sends a reply, or closes a connection whose unread output is already past the limit. */
function reply(context: CallContext, text: string): void {
  const { connection } = context;
  const bytes = Buffer.byteLength(text);
  if (connection.queuedBytes + bytes > REPLY_QUEUE_LIMIT_BYTES) {
    context.dropped?.(`${connection.queuedBytes} bytes of replies unread, and ${bytes} more would pass the ${REPLY_QUEUE_LIMIT_BYTES >> 20} MiB limit`);
    connection.end();
    return;
  }
  connection.send(text);
}

async function answer(raw: unknown, dispatch: Dispatch, context: CallContext): Promise<JsonRpcResponse | null> {
  const checked = checkRequest(raw);
  if ("error" in checked) return errorResponse(checked.id, checked.error);
  const { request } = checked;
  const isNotification = !("id" in request);
  try {
    const callContext = request.clientVersion === undefined ? context : { ...context, clientVersion: request.clientVersion };
    const result = await dispatch(request.method, request.params ?? {}, callContext);
    return isNotification ? null : { jsonrpc: "2.0", id: request.id ?? null, result: result ?? null };
  } catch (error) {
    return isNotification ? null : errorResponse(request.id ?? null, asTuiwrightError(error));
  }
}

async function handleFrame(text: string, dispatch: Dispatch, context: CallContext): Promise<void> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    reply(context, JSON.stringify(errorResponse(null, new TuiwrightError("parse-error", `parse error: ${why}`))) + "\n");
    return;
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) {
      reply(context, JSON.stringify(errorResponse(null, new TuiwrightError("invalid-request", "invalid request: empty batch"))) + "\n");
      return;
    }
    const responses = (await Promise.all(parsed.map((item) => answer(item, dispatch, context)))).filter((r) => r !== null);
    if (responses.length > 0) reply(context, JSON.stringify(responses) + "\n");
    return;
  }
  const response = await answer(parsed, dispatch, context);
  if (response) reply(context, JSON.stringify(response) + "\n");
}

export function serveJsonRpc(path: string, dispatch: Dispatch, hooks: ServerHooks): { stop(): void } {
  const readers = new Map<number, LineReader>();
  const stalls = new Map<number, ReturnType<typeof setTimeout>>();
  const idleMs = partialFrameIdleMs();
  const drop = (connection: Connection, reason: string) => hooks.dropped?.(connection, reason);
  return listenUnix(path, {
    open(connection) {
      readers.set(connection.id, new LineReader());
      hooks.opened(connection);
    },
    data(connection, bytes) {
      const context: CallContext = { connection, dropped: (reason) => drop(connection, reason) };
      const reader = readers.get(connection.id);
      reader?.push(bytes, {
        line: (text) => void handleFrame(text, dispatch, context),
        oversized: (size) => {
          const error = new TuiwrightError("invalid-request", `frame of ${size} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit; discarded`, {
            hint: "send smaller requests; other requests on this connection are unaffected",
          });
          reply(context, JSON.stringify(errorResponse(null, error)) + "\n");
        },
      });
      // A frame that stops half-way holds its bytes: give up on it (and the connection) after
      // a while without progress.
      clearTimeout(stalls.get(connection.id));
      stalls.delete(connection.id);
      if (reader?.partial) {
        stalls.set(connection.id, setTimeout(() => {
          drop(connection, `a partial frame saw no new bytes for ${idleMs} ms`);
          connection.end();
        }, idleMs));
      }
    },
    close(connection) {
      clearTimeout(stalls.get(connection.id));
      stalls.delete(connection.id);
      readers.delete(connection.id);
      hooks.closed(connection);
    },
  });
}
