// The daemon's pass-through table: each row's reader/writer agrees with the method table's
// readOnly (a writer checks the lease), and a writer's params can carry a lease at all.
import { expect, test } from "bun:test";
import { PASS_THROUGH } from "../../../lib/daemon/pass-through.ts";
import { METHODS } from "../../../lib/protocol/methods.ts";

test("a pass-through row is a writer exactly when its method is not read-only, and writers take --lease", () => {
  for (const [method, row] of Object.entries(PASS_THROUGH)) {
    const def = METHODS[method as keyof typeof PASS_THROUGH];
    expect({ method, writer: row.access === "writer" }).toEqual({ method, writer: !def.readOnly });
    const keys = Object.keys((def.params as unknown as { entries: Record<string, unknown> }).entries);
    expect({ method, lease: keys.includes("lease") }).toEqual({ method, lease: row.access === "writer" });
  }
});

test("the forwarded methods are the table's forward: true ones", () => {
  expect(Object.keys(PASS_THROUGH).sort()).toEqual(["block", "blocks", "click", "exec", "send", "status", "turn"]);
});
