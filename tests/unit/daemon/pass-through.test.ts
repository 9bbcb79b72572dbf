// The daemon's pass-through table: a row is a writer (it checks the lease) exactly when its
// method's params take a lease, and no read-only method is a writer.
import { expect, test } from "bun:test";
import { PASS_THROUGH } from "../../../lib/daemon/pass-through.ts";
import { METHODS } from "../../../lib/protocol/methods.ts";

test("a pass-through row is a writer exactly when its method takes --lease, and read-only methods never do", () => {
  for (const [method, row] of Object.entries(PASS_THROUGH)) {
    const def = METHODS[method as keyof typeof PASS_THROUGH];
    const keys = Object.keys((def.params as unknown as { entries: Record<string, unknown> }).entries);
    expect({ method, lease: keys.includes("lease") }).toEqual({ method, lease: row.access === "writer" });
    if (def.readOnly) expect({ method, access: row.access }).toEqual({ method, access: "reader" });
  }
  // mark changes the recording, not the program: it is no writer (as before it was forwarded).
  expect(PASS_THROUGH.mark.access).toBe("reader");
});

test("the forwarded methods are the table's forward: true ones", () => {
  expect(Object.keys(PASS_THROUGH).sort()).toEqual([
    "back", "block", "blocks", "click", "end", "exec", "forward", "get", "mark", "mouse", "navigate", "press", "reload", "resize", "scroll", "send", "signal", "snapshot", "status", "turn", "type", "wait",
  ]);
});
