// The spare session worker (lib/link/spare-worker.ts): one at most, made only where there is
// room for its thread, handed out once, dropped when its thread ends.
import { expect, test } from "bun:test";
import { SpareWorker } from "../../../lib/link/spare-worker.ts";

/** Resolves once `condition` holds (a worker's thread ending is an event we cannot await here). */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`not within 10 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test("no spare is made while there is no room for its thread (a session forking without end)", () => {
  const spare = new SpareWorker(() => false);
  spare.fill();
  expect(spare.ready).toBe(false);
  expect(spare.take()).toBeNull();
  spare.close();
});

test("one spare at most, handed out once; a spare whose thread ended is dropped", async () => {
  const spare = new SpareWorker(() => true);
  spare.fill();
  expect(spare.ready).toBe(true);
  const taken = spare.take();
  expect(taken).not.toBeNull();
  expect(spare.ready).toBe(false);
  expect(spare.take()).toBeNull();
  taken!.terminate();
  spare.fill();
  expect(spare.crash()).toBe(true);
  await until(() => !spare.ready, "the ended spare dropped");
  expect(spare.take()).toBeNull();
  spare.fill();
  expect(spare.ready).toBe(true);
  spare.close();
  expect(spare.ready).toBe(false);
  spare.fill(); // closed: makes no more
  expect(spare.ready).toBe(false);
});
