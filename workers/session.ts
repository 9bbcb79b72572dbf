// Session worker entry: hosts one SessionRuntime and answers the daemon's calls.
import { asTuiwrightError } from "../lib/protocol/errors.ts";
import type { DaemonToWorker, WorkerOps, WorkerToDaemon } from "../lib/session/messages.ts";
import { heapReport } from "../lib/runtime/heap-report.ts";
import { SessionRuntime } from "../lib/session/session-runtime.ts";

declare const self: Worker;

let runtime: SessionRuntime | undefined;

function send(message: WorkerToDaemon): void {
  self.postMessage(message);
}

/** Calls that can be cancelled (waits), by call id. */
const cancellable = new Map<number, AbortController>();

async function call(op: keyof WorkerOps, params: any, session: SessionRuntime, id: number): Promise<unknown> {
  switch (op) {
    case "snapshot": {
      const reply = session.snapshot(params);
      if (params.format !== "png") return reply;
      // Rasterised here, never on the daemon's thread that serves every client: a huge
      // screen costs this session's time only.
      const { renderPng } = await import("../lib/render/png.ts");
      const { svg, ...rest } = reply;
      return { ...rest, png: Buffer.from(await renderPng(svg!)).toString("base64") };
    }
    case "type": return session.type(params);
    case "press": return session.press(params);
    case "click": return session.click(params);
    case "resize": return session.resize(params);
    case "get": return { value: session.get(params.what) };
    case "mark": return session.mark(params.label);
    case "exec": return session.exec(params);
    case "send": return session.send(params.data, params.secret === true);
    case "status": return session.status();
    case "closing": return session.closing(params.reason);
    case "firstScreen": return session.firstScreen(params.boundMs);
    case "blocks": return session.blocks(params);
    case "block": return session.block(params);
    case "scroll": return session.scroll(params);
    case "browser": return session.browser();
    case "browserInput": return session.browserInput(params);
    case "wait": {
      const controller = new AbortController();
      cancellable.set(id, controller);
      try {
        return await session.wait(params, controller.signal);
      } finally {
        cancellable.delete(id);
      }
    }
    case "memory": return heapReport(params);
    case "dispose": session.dispose(); return { disposed: true };
    case "crash":
      // Fault injection: an uncaught error outside any handler, as a real bug would be.
      setTimeout(() => { throw new Error("crash requested by debug.crashWorker"); }, 0);
      return new Promise(() => {});
  }
}

self.onmessage = async (event: MessageEvent<DaemonToWorker>) => {
  const message = event.data;
  if (message.kind === "start") {
    try {
      runtime = new SessionRuntime(message.spec, {
        changed: (revision, hash, title) => send({ kind: "changed", revision, hash, title }),
        bell: (revision, hash) => send({ kind: "bell", revision, hash }),
        resized: (cols, rows, revision, hash) => send({ kind: "resized", cols, rows, revision, hash }),
        ended: (exit) => send({ kind: "ended", exit }),
      });
      send({ kind: "started", pid: runtime.pid });
    } catch (error) {
      send({ kind: "start-failed", error: asTuiwrightError(error).toJsonRpc() });
    }
    return;
  }
  if (message.kind === "cancel") {
    cancellable.get(message.id)?.abort();
    return;
  }
  try {
    if (!runtime) throw new Error("the session has not started");
    const result = await call(message.op, message.params, runtime, message.id);
    send({ kind: "reply", id: message.id, result });
  } catch (error) {
    send({ kind: "reply", id: message.id, error: asTuiwrightError(error).toJsonRpc() });
  }
};
