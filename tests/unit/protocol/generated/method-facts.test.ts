// The thin CLI reads which methods take a session and a lease from generated plain data; it
// must match the method table (the hand-kept list it replaced drifted: `set-viewport --lease`
// was dropped, and `adapter list` got a session it does not take).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { METHOD_FACTS_FILE, methodFactsSource } from "../../../../scripts/gen-method-facts.ts";
import { TAKES_LEASE, TAKES_SESSION } from "../../../../lib/protocol/generated/method-facts.ts";

test("the generated method facts are fresh (run `bun scripts/gen-method-facts.ts` or `bun run build`)", () => {
  expect(readFileSync(METHOD_FACTS_FILE, "utf8")).toBe(methodFactsSource());
});

test("every method that writes takes the lease; sessionless methods take no session", () => {
  for (const method of ["set_viewport", "navigate", "go_back", "go_forward", "reload", "scroll", "resize", "type"]) expect(TAKES_LEASE.has(method)).toBe(true);
  for (const method of ["adapter.list", "adapter.check", "ping", "list", "capabilities"]) expect(TAKES_SESSION.has(method)).toBe(false);
});
