// A deterministic model server on 127.0.0.1 for the AI coding CLIs: Anthropic Messages,
// OpenAI Chat Completions and Responses, and Gemini generateContent, streamed as SSE from a
// script (script.ts). Every request is logged (what the CLI sent, what was answered, when the
// last chunk left), so tests can assert on it and benchmarks can time the CLI's redraw.
import { appendFileSync } from "node:fs";
import { anthropicEvents, anthropicJson, chatEvents, chatJson, type Event, geminiEvents, geminiJson, type Resolved, responsesEvents } from "./encoders.ts";
import { type Api, questionCall, readConversation, shellCall, writeCall } from "./requests.ts";
import { chunks, DEFAULT_SCRIPT, type Part, replyFor, type Script } from "./script.ts";

export type LogEntry = {
  seq: number;
  method: string;
  path: string;
  userAgent: string;
  api: Api | null;
  prompt: string;
  step: number;
  model: string;
  tools: string[];
  reply: Resolved[] | { error: string };
  status: number;
  /** Epoch milliseconds (fractional) when the request arrived and when its last byte was sent. */
  receivedAt: number;
  lastChunkAt: number | null;
  body: unknown;
};

export type ModelServer = {
  url: string;
  port: number;
  log: LogEntry[];
  setScript(script: Script): void;
  /** Resolves at the next logged request whose last chunk has been sent and that matches. */
  next(match?: (entry: LogEntry) => boolean): Promise<LogEntry>;
  stop(): Promise<void>;
};

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function apiOf(method: string, path: string): Api | null {
  if (method !== "POST") return null;
  if (/\/messages$/.test(path)) return "anthropic";
  if (/\/chat\/completions$/.test(path)) return "chat";
  if (/\/responses$/.test(path)) return "responses";
  if (/:(stream)?[gG]enerateContent$/.test(path)) return "gemini";
  return null;
}

function resolve(parts: Part[], convo: ReturnType<typeof readConversation>, seq: number): Resolved[] {
  const tools = convo.tools;
  return parts.map((part, i): Resolved => {
    const id = `call_${seq}_${i}`;
    if ("text" in part) return { text: part.text };
    if ("fromToolOutput" in part) {
      const match = new RegExp(part.fromToolOutput).exec(convo.lastToolOutput ?? "");
      return { text: `${part.prefix ?? ""}${match ? match[0] : "(no match)"}` };
    }
    if ("run" in part) return { call: { id, ...shellCall(tools, part.run) } };
    if ("write" in part) return { call: { id, ...writeCall(tools, part.write.path, part.write.content) } };
    if ("tool" in part) return { call: { id, name: part.tool.name, input: part.tool.input } };
    if ("question" in part) return { call: { id, ...questionCall(tools, part.question) } };
    throw new Error("an error part cannot be mixed into a streamed reply");
  });
}

/** The events to send before a stall: those of the parts before it, without the events that
 * end a reply (the stream stops mid-answer). */
function beforeStall(events: Event[]): Event[] {
  const ends = /^(message_delta|message_stop|response\.completed|response\.output_text\.done|response\.content_part\.done|response\.output_item\.done)$/;
  return events.filter((event) => !(event.event && ends.test(event.event)) && event.data !== "[DONE]" &&
    !JSON.stringify(event.data).includes('"finish_reason":"') && !JSON.stringify(event.data).includes('"finishReason"'));
}

/** Answers that are not a model turn: token counts, model lists, health. */
function sideAnswer(method: string, path: string): Response | null {
  if (/count_tokens$/.test(path)) return Response.json({ input_tokens: 10 });
  if (/:countTokens$/.test(path)) return Response.json({ totalTokens: 10 });
  if (method === "GET" && /\/models$/.test(path)) {
    return Response.json({ object: "list", data: [{ id: "tuiwright-model", object: "model", created: 0, owned_by: "tuiwright" }], models: [{ name: "models/tuiwright-model", slug: "tuiwright-model" }] });
  }
  return null;
}

export function startModelServer(options: { script?: Script; logFile?: string } = {}): ModelServer {
  let script = options.script ?? DEFAULT_SCRIPT;
  const log: LogEntry[] = [];
  const waiters: { match: (e: LogEntry) => boolean; resolve: (e: LogEntry) => void }[] = [];
  /** Which prompt each tool call the server made answered (its id → the prompt). */
  const issuedFor = new Map<string, string>();
  /** Streams held open by a stall part, closed when the server stops. */
  const stalled: ReadableStreamDefaultController<Uint8Array>[] = [];
  const finish = (entry: LogEntry) => {
    entry.lastChunkAt ??= now();
    if (options.logFile) appendFileSync(options.logFile, `${JSON.stringify(entry)}\n`);
    for (const w of [...waiters]) if (w.match(entry)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(entry); }
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const path = url.pathname;
      const raw = request.method === "POST" ? await request.text() : "";
      let body: Record<string, unknown> = {};
      try { body = raw ? JSON.parse(raw) : {}; } catch { /* logged as text */ }
      const api = apiOf(request.method, path);
      const entry: LogEntry = {
        seq: log.length + 1, method: request.method, path, userAgent: request.headers.get("user-agent") ?? "",
        api, prompt: "", step: 0, model: "", tools: [], reply: [], status: 200, receivedAt: now(), lastChunkAt: null, body: raw && Object.keys(body).length === 0 ? raw : body,
      };
      log.push(entry);
      if (request.method === "POST" && path === "/__script") {
        script = body as unknown as Script;
        finish(entry);
        return Response.json({ ok: true });
      }
      if (request.method === "GET" && path === "/__log") return Response.json(log.slice(0, -1));
      if (!api) {
        const side = sideAnswer(request.method, path);
        entry.status = side?.status ?? 404;
        finish(entry);
        return side ?? Response.json({ error: { message: `the tuiwright model server has no ${request.method} ${path}` } }, { status: 404 });
      }
      const convo = readConversation(api, body, path);
      // The step from the results of calls made for this prompt, where the request names them.
      const ours = (convo.resultIds ?? []).filter((id) => issuedFor.get(id) === convo.prompt).length;
      if (convo.resultIds?.some((id) => issuedFor.has(id))) convo.step = ours;
      Object.assign(entry, { prompt: convo.prompt, step: convo.step, model: convo.model, tools: convo.tools.map((t) => t.name) });
      const all = replyFor(script, convo.prompt, convo.step);
      const stallAt = all.findIndex((p) => "stall" in p);
      const parts = stallAt < 0 ? all : all.slice(0, stallAt);
      const failure = parts.find((p) => "error" in p);
      let reply: Resolved[];
      try {
        if (failure && "error" in failure) throw Object.assign(new Error(failure.error.message), { status: failure.error.status, retryAfterMs: failure.error.retryAfterMs });
        reply = resolve(parts, convo, entry.seq);
        for (const part of reply) if ("call" in part) issuedFor.set(part.call.id, convo.prompt);
      } catch (error) {
        const status = (error as { status?: number }).status ?? 500;
        entry.status = status;
        entry.reply = { error: (error as Error).message };
        finish(entry);
        const message = (error as Error).message;
        const payload = api === "anthropic" ? { type: "error", error: { type: "api_error", message } } : { error: { message, type: "server_error", code: status } };
        // Retry-After in milliseconds, as OpenAI's API sends it: a CLI that honours it (opencode)
        // retries at once instead of backing off for minutes before it shows the error.
        const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
        return Response.json(payload, { status, ...(retryAfterMs !== undefined ? { headers: { "retry-after-ms": String(retryAfterMs) } } : {}) });
      }
      entry.reply = reply;
      const model = convo.model || "tuiwright-model";
      const split = (t: string) => chunks(t, script.chunk ?? 8);
      if (!convo.stream) {
        finish(entry);
        if (api === "anthropic") return Response.json(anthropicJson(reply, model));
        if (api === "chat") return Response.json(chatJson(reply, model));
        if (api === "gemini") return Response.json(geminiJson(reply));
      }
      const encoded: Event[] = api === "anthropic" ? anthropicEvents(reply, model, split) : api === "chat" ? chatEvents(reply, model, split) : api === "responses" ? responsesEvents(reply, model, split) : geminiEvents(reply, split);
      const events = stallAt < 0 ? encoded : beforeStall(encoded);
      const delay = script.delayMs ?? 15;
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          try {
            for (const [i, event] of events.entries()) {
              if (i > 0 && delay > 0) await sleep(delay);
              const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
              controller.enqueue(encoder.encode(`${event.event ? `event: ${event.event}\n` : ""}data: ${data}\n\n`));
            }
            entry.lastChunkAt = now();
            if (stallAt >= 0) {
              // Stalled: nothing more until the client hangs up (its cancel ends this stream).
              stalled.push(controller);
              finish(entry);
              return;
            }
            controller.close();
          } catch {
            // the client went away mid-stream
          }
          finish(entry);
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    log,
    setScript(next) { script = next; },
    next(match = () => true) {
      return new Promise((resolveEntry) => waiters.push({ match, resolve: resolveEntry }));
    },
    async stop() {
      for (const controller of stalled.splice(0)) try { controller.close(); } catch { /* already gone */ }
      await server.stop(true);
    },
  };
}
