// A session worker that cannot be created (Bun throws when the user's or the machine's task
// limit leaves no thread to start): the spawn fails with "busy" (exit 75), saying what to do.
import { afterEach, expect, test } from "bun:test";
import { SessionWorker } from "../../../lib/link/worker-handle.ts";
import { WorkerPool } from "../../../lib/link/worker-pool.ts";
import { failure } from "../../helpers/errors.ts";

const RealWorker = globalThis.Worker;
afterEach(() => {
  globalThis.Worker = RealWorker;
});

test("a worker thread that cannot be created is a busy error naming the session, not a crash", async () => {
  globalThis.Worker = class {
    constructor() {
      throw new TypeError("Failed to spawn worker thread");
    }
  } as unknown as typeof Worker;
  const spec = { name: "s", argv: ["cat"], cwd: "/", env: {}, cols: 80, rows: 24, cast: null, shell: null, browser: false, cgroup: null, taskLimit: null };
  const error = await failure(SessionWorker.start(spec as Parameters<typeof SessionWorker.start>[0], { event() {}, crashed() {} }, new WorkerPool(2)));
  expect(error.errorName).toBe("busy");
  expect(error.exitCode).toBe(75);
  expect(error.message).toBe('session "s": cannot start its worker thread (Failed to spawn worker thread)');
  expect(error.hint).toContain("tuiwright kill");
});
