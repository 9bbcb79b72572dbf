// The desktop's handle on one HTML5 app worker: starts it, correlates operation calls with
// replies (with a timeout: E_TIMEOUT), and turns a crash into that app's failure only.
import { TuiwrightError } from "../protocol/errors.ts";
import { appWorkerUrl } from "../runtime/self.ts";
import { desktopError } from "./aotui-codes.ts";
import type { FromApp, StartMessage, ToApp, ViewUpdate } from "./app-messages.ts";

const START_TIMEOUT_MS = 15_000;

/** One app worker started ahead of need (its headless DOM already loading), so opening an
 * app costs its own script, not a worker's start-up. Unreferenced: it never keeps a process alive. */
let spare: Worker | null = null;

function takeWorker(): Worker {
  const worker = spare ?? new Worker(appWorkerUrl());
  spare = new Worker(appWorkerUrl());
  (spare as unknown as { unref(): void }).unref();
  (worker as unknown as { ref(): void }).ref();
  return worker;
}

export type AppHostHooks = {
  views(updates: ViewUpdate[]): void;
  crashed(reason: string): void;
  /** An operation that timed out has finished after all (error: it failed). */
  late?(operation: string, error: Error | null): void;
};

type Pending = { resolve(value: any): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout>; operation: string; startedAt: number; overdueSince?: number };

export class AppHost {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #dead: string | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  /** Starts the worker and resolves with the app's first views once its script has run. */
  static start(message: StartMessage, hooks: AppHostHooks): Promise<{ host: AppHost; views: ViewUpdate[] }> {
    const worker = takeWorker();
    const host = new AppHost(worker);
    return new Promise((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        worker.terminate();
        reject(desktopError("timeout", `app ${message.appId} did not start within ${START_TIMEOUT_MS} ms`));
      }, START_TIMEOUT_MS);
      // Without an error listener a failed import inside the binary hangs silently.
      worker.addEventListener("error", (event) => {
        const reason = (event as ErrorEvent).message || "unknown error";
        if (!ready) {
          clearTimeout(timer);
          worker.terminate();
          reject(desktopError("app-failed", `app ${message.appId} failed to start: ${reason}`));
        } else host.#die(reason, hooks);
      });
      // A worker that ends itself (process.exit in the app) ends without an error event.
      worker.addEventListener("close", () => {
        if (!ready) {
          clearTimeout(timer);
          reject(desktopError("app-failed", `app ${message.appId} exited while starting`));
        } else host.#die("its worker exited", hooks);
      });
      worker.addEventListener("message", (event: MessageEvent) => {
        const data = event.data as FromApp;
        switch (data.kind) {
          case "ready":
            ready = true;
            clearTimeout(timer);
            resolve({ host, views: data.views });
            return;
          case "start-failed":
            clearTimeout(timer);
            worker.terminate();
            reject(TuiwrightError.fromJsonRpc(data.error));
            return;
          case "views":
            hooks.views(data.views);
            return;
          case "reply": {
            const pending = host.#pending.get(data.id);
            if (!pending) return;
            host.#pending.delete(data.id);
            clearTimeout(pending.timer);
            const error = data.error ? TuiwrightError.fromJsonRpc(data.error) : null;
            // It was answered E_TIMEOUT already: say how it ended after all.
            if (pending.overdueSince !== undefined) hooks.late?.(pending.operation, error);
            else if (error) pending.reject(error);
            else pending.resolve(data.value);
            return;
          }
        }
      });
      worker.postMessage(message satisfies ToApp);
    });
  }

  call(message: Omit<Extract<ToApp, { kind: "operation" }>, "id"> | { kind: "serialize" }, timeoutMs: number): Promise<any> {
    if (this.#dead !== null) return Promise.reject(desktopError("app-failed", `the app has crashed: ${this.#dead}`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const operation = message.kind === "operation" ? message.operation : "serialize";
      const timer = setTimeout(() => {
        // The app may still finish it: it stays pending (overdue) and the app is not responding
        // until it does; the caller is told it may still take effect, so not to retry blindly.
        const pending = this.#pending.get(id);
        if (pending) pending.overdueSince = performance.now();
        reject(desktopError("timeout", `${message.kind === "operation" ? `operation ${operation}` : "serialize"} did not finish within ${timeoutMs} ms; it may still finish and take effect (the app is marked not-responding until it does; read the desktop before you retry)`, {}, undefined, false));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer, operation, startedAt: performance.now() });
      this.#worker.postMessage({ ...message, id } as ToApp);
    });
  }

  /** The oldest operation that timed out and has not finished. */
  overdue(): { operation: string; sinceMs: number } | null {
    for (const pending of this.#pending.values()) {
      if (pending.overdueSince !== undefined) return { operation: pending.operation, sinceMs: performance.now() - pending.startedAt };
    }
    return null;
  }

  get crashed(): string | null {
    return this.#dead;
  }

  #die(reason: string, hooks: AppHostHooks): void {
    if (this.#dead !== null) return;
    this.#dead = reason;
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(desktopError("app-failed", `the app crashed: ${reason}`));
    }
    this.#pending.clear();
    this.#worker.terminate();
    hooks.crashed(reason);
  }

  terminate(): void {
    if (this.#dead !== null) return;
    this.#dead = "closed";
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(desktopError("app-failed", "the app was closed"));
    }
    this.#pending.clear();
    this.#worker.terminate();
  }
}
