// Stale-ref resolution (SessionOutline.resolve) on a real xterm screen: a positional ref is
// checked against the outline it was issued in — the same node anywhere in today's numbering,
// a keyed row wherever its key is now, else a stale-ref error saying what it was and what is
// there now. Durable manifest refs are looked up on the current screen. The session's pid is
// 0 (no such process), so no foreground process adds facts of its own.
import { afterEach, expect, test } from "bun:test";
import { SessionOutline } from "../../../lib/worker/session-outline.ts";
import { Screen } from "../../../lib/terminal/screen.ts";
import { useBuiltinAdaptersOnly } from "../../helpers/builtin-adapters-only.ts";
import { thrown } from "../../helpers/errors.ts";

// No user manifest may shape these screens.
useBuiltinAdaptersOnly("tw-outline-");

let screen: Screen;
afterEach(() => screen?.dispose());

/** A screen showing `lines`, and the session outline over it running `argv`. */
async function session(lines: string[], argv = ["cat"]): Promise<SessionOutline> {
  screen = new Screen({ cols: 40, rows: 8, scrollback: 0 });
  await draw(lines);
  return new SessionOutline(screen, argv, 0);
}

/** Clears the screen and draws `lines` from the top. */
async function draw(lines: string[]): Promise<void> {
  await screen.write(`\x1b[H\x1b[2J${lines.join("\r\n")}`);
}


const TEXT = ["alpha one", "", "beta two", "", "gamma three"];

test("a positional ref before any outline was issued cannot be checked", async () => {
  const outline = await session(TEXT);
  const error = thrown(() => outline.resolve("@e1", undefined));
  expect(error.errorName).toBe("stale-ref");
  expect(error.message).toBe("cannot check @e1: no outline has been issued for this session yet");
  expect(error.exitCode).toBe(65);
});

test("on the screen it was issued for, a positional ref is that outline's node", async () => {
  const outline = await session(TEXT);
  const issued = outline.issue();
  expect(outline.resolve("@e2", issued.revision)).toMatchObject({ ref: "@e2", role: "paragraph", name: "beta two", bbox: { row: 2, col: 0 } });
  expect(outline.resolve("@e2", undefined).name).toBe("beta two"); // no revision: the latest issued
  const missing = thrown(() => outline.resolve("@e9", issued.revision));
  expect(missing.message).toBe(`there is no @e9 in the outline of revision ${issued.revision}`);
  expect(missing.details).toEqual({ ref: "@e9", revision: issued.revision });
});

test("after a change, the same node (role, name, box) is found whatever its number is today", async () => {
  const outline = await session(TEXT);
  const issued = outline.issue();
  await draw(["", "", "beta two", "", "gamma three"]); // alpha gone: beta is @e1 now
  expect(screen.revision).toBeGreaterThan(issued.revision);
  expect(outline.resolve("@e2", issued.revision)).toMatchObject({ ref: "@e1", name: "beta two", bbox: { row: 2, col: 0 } });
});

test("a node that moved or changed is stale: the error says what it was and what the ref is now", async () => {
  const outline = await session(TEXT);
  const issued = outline.issue();
  await draw(["alpha one", "beta two", "", "gamma three"]); // beta moved up a row
  const error = thrown(() => outline.resolve("@e2", issued.revision));
  expect(error.errorName).toBe("stale-ref");
  expect(error.message).toBe(
    `@e2 is stale: it was paragraph "beta two" at row 2, col 0 at revision ${issued.revision}; at revision ${screen.revision} @e2 is paragraph "gamma three" at row 3, col 0`,
  );
  expect(error.details).toMatchObject({ ref: "@e2", issuedRevision: issued.revision, revision: screen.revision, was: { name: "beta two" }, now: { name: "gamma three" } });

  await draw(["alpha one", "\x1b[?25l"]); // one node, @e1 (the cursor hidden: no cursor node)
  expect(thrown(() => outline.resolve("@e2", issued.revision)).message).toEndWith(`at revision ${screen.revision} there is no @e2`);
});

test("only the last 16 issued outlines are kept; an older revision is stale", async () => {
  const outline = await session(["kept", "", "line 0"]);
  const first = outline.issue();
  for (let n = 1; n <= 16; n++) {
    await draw(["kept", "", `line ${n}`]);
    outline.issue();
  }
  const error = thrown(() => outline.resolve("@e1", first.revision));
  expect(error.message).toBe(`cannot check @e1: the outline of revision ${first.revision} is not kept (the last 16 are)`);
  expect(outline.resolve("@e1", first.revision + 1).name).toBe("kept");
});

const TOP = (rows: string[]) => ["top - load average: 0.50", "  PID USER  COMMAND", ...rows];

test("a keyed row (a process by PID) is wherever its key is now; gone or doubled, it is stale", async () => {
  const outline = await session(TOP(["  101 root  bash", "  202 root  vim"]), ["top"]);
  const issued = outline.issue();
  expect(issued.adapter).toBe("top");
  expect(outline.resolve("@e2", issued.revision)).toMatchObject({ key: "101", bbox: { row: 2 } });

  await draw(TOP(["  202 root  vim", "  101 root  bash"])); // re-sorted
  expect(outline.resolve("@e2", issued.revision)).toMatchObject({ ref: "@e3", key: "101", name: "101 root  bash", bbox: { row: 3 } });

  await draw(TOP(["  202 root  vim"]));
  const gone = thrown(() => outline.resolve("@e2", issued.revision));
  expect(gone.message).toBe(`@e2 is stale: it was row "101 root  bash" at row 2, col 0 (key "101") at revision ${issued.revision}; at revision ${screen.revision} no row with key "101" is on the screen now`);
  expect(gone.details).toMatchObject({ key: "101", issuedRevision: issued.revision });

  await draw(TOP(["  101 root  bash", "  101 root  bash"]));
  expect(thrown(() => outline.resolve("@e2", issued.revision)).message).toEndWith('2 rows have key "101" now');
});

test("a durable ref is looked up on the screen now; one that is not there lists the nearest refs", async () => {
  const outline = await session(TOP(["  101 root  bash"]), ["top"]);
  expect(outline.resolve("@top.summary", undefined)).toMatchObject({ ref: "@top.summary", value: "0.50" });
  const error = thrown(() => outline.resolve("@top.sumary", undefined));
  expect(error.errorName).toBe("stale-ref");
  expect(error.message).toStartWith(`@top.sumary is not on the screen now (adapter top, revision ${screen.revision}); refs on screen`);
  expect(error.message).toContain("@top.summary group");
  expect(error.details).toEqual({ ref: "@top.sumary", revision: screen.revision });
});

test("a selector target must match exactly one node", async () => {
  const outline = await session(TEXT);
  expect(outline.resolve('paragraph[name="beta two"]', undefined).bbox.row).toBe(2);
  const many = thrown(() => outline.resolve("paragraph", undefined));
  expect(many.errorName).toBe("bad-selector");
  expect(many.message).toBe('"paragraph" matches 3 nodes; a target must match exactly one');
  const none = thrown(() => outline.resolve('paragraph[name="delta"]', undefined));
  expect(none.message).toStartWith('"paragraph[name=\\"delta\\"]" matches 0 nodes; a target must match exactly one; refs on screen');
});
