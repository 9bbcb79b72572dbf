// The worker's operations, one entry per op of the daemon⇄worker protocol (WorkerOps): the
// compiler checks the table is complete and each entry's params and result.
import { heapReport } from "../runtime/heap-report.ts";
import type { WorkerOpTable } from "./messages.ts";
import type { SessionRuntime } from "./session-runtime.ts";

export function workerOps(session: SessionRuntime): WorkerOpTable {
  return {
    async snapshot(params) {
      const reply = session.snapshot(params);
      if (params.format !== "png") return reply;
      // Rasterised here, never on the daemon's thread that serves every client: a huge
      // screen costs this session's time only.
      const { renderPng } = await import("../render/png.ts");
      const { svg, ...rest } = reply;
      return { ...rest, png: Buffer.from(await renderPng(svg!)).toString("base64") };
    },
    type: (params) => session.type(params),
    press: (params) => session.press(params),
    click: (params) => session.click(params),
    resize: (params) => session.resize(params),
    get: (params) => ({ value: session.get(params.what) }),
    mark: (params) => session.mark(params.label),
    exec: (params) => session.exec(params),
    send: (params) => session.send(params.data, params.secret === true),
    status: () => session.status(),
    closing: (params) => session.closing(params.reason),
    firstScreen: (params) => session.firstScreen(params.boundMs),
    blocks: (params) => session.blocks(params),
    block: (params) => session.block(params),
    scroll: (params) => session.scroll(params),
    browser: () => session.browser(),
    browserInput: (params) => session.browserInput(params),
    wait: (params, signal) => session.wait(params, signal),
    memory: (params) => heapReport(params),
    dispose: () => { session.dispose(); return { disposed: true }; },
    crash: () => {
      // Fault injection: an uncaught error outside any handler, as a real bug would be.
      setTimeout(() => { throw new Error("crash requested by debug.crashWorker"); }, 0);
      return new Promise<never>(() => {});
    },
  };
}
