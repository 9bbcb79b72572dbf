// JSON-RPC 2.0 over NDJSON on a Unix socket: many requests per connection, each answered
// when it finishes (out of order), batches, notifications, and errors that never close the
// connection. What a method does is the dispatcher's business.
import { asTuiwrightError, TuiwrightError } from "../protocol/errors.ts";
import { checkRequest, errorResponse, type JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { listenUnix, type Connection } from "../runtime/unix-socket.ts";
import { LineReader, MAX_FRAME_BYTES } from "./ndjson.ts";

export type CallContext = { connection: Connection; clientVersion?: string };

export type Dispatch = (method: string, params: unknown, context: CallContext) => Promise<unknown>;

export type ServerHooks = { opened(connection: Connection): void; closed(connection: Connection): void };

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
    context.connection.send(JSON.stringify(errorResponse(null, new TuiwrightError("parse-error", `parse error: ${why}`))) + "\n");
    return;
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) {
      context.connection.send(JSON.stringify(errorResponse(null, new TuiwrightError("invalid-request", "invalid request: empty batch"))) + "\n");
      return;
    }
    const responses = (await Promise.all(parsed.map((item) => answer(item, dispatch, context)))).filter((r) => r !== null);
    if (responses.length > 0) context.connection.send(JSON.stringify(responses) + "\n");
    return;
  }
  const response = await answer(parsed, dispatch, context);
  if (response) context.connection.send(JSON.stringify(response) + "\n");
}

export function serveJsonRpc(path: string, dispatch: Dispatch, hooks: ServerHooks): { stop(): void } {
  const readers = new Map<number, LineReader>();
  return listenUnix(path, {
    open(connection) {
      readers.set(connection.id, new LineReader());
      hooks.opened(connection);
    },
    data(connection, bytes) {
      const context = { connection };
      readers.get(connection.id)?.push(bytes, {
        line: (text) => void handleFrame(text, dispatch, context),
        oversized: (size) => {
          const error = new TuiwrightError("invalid-request", `frame of ${size} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit; discarded`, {
            hint: "send smaller requests; other requests on this connection are unaffected",
          });
          connection.send(JSON.stringify(errorResponse(null, error)) + "\n");
        },
      });
    },
    close(connection) {
      readers.delete(connection.id);
      hooks.closed(connection);
    },
  });
}
