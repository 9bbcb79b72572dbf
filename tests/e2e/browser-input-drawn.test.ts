// An input to a browser answers once what it changed on the page is on the screen (issue 27:
// an operation answers ok only after it saw its effect). The stand-in Carbonyl's
// http://draws-late/ page has typed text in its DOM at once and draws it 400 ms later, as the
// real one does under load; before, `type` answered after the engine's frame, and a snapshot
// read next showed the screen without it.
import { expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { useWorld } from "../helpers/harness.ts";

setDefaultTimeout(60_000);

const world = useWorld({ CARBONYL: resolve(import.meta.dir, "../testdata/fake-carbonyl/carbonyl") });

test("type answers once the text it changed on the page is drawn: a snapshot read next shows it", async () => {
  await world.json(["browse", "--session", "late", "http://draws-late/"]);
  for (const word of ["hello", " there"]) {
    const started = performance.now();
    expect((await world.json(["type", "--session", "late", word])).ok).toBe(true);
    // Read at once, without a wait: the answer promised the page's change is on the screen.
    expect((await world.run(["snapshot", "--session", "late", "--plain"])).stdout).toContain(`typed: hello${word === "hello" ? "" : " there"}`);
    // It waited for Carbonyl's late frame, not for a bound.
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  }
});
