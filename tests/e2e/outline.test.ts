import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { World } from "../helpers/harness.ts";

const CLICKER = resolve(import.meta.dir, "../testdata/clicker.py");
const CLICKER_MANIFEST = `
name = "clicker"
[detect]
argv = ["clicker.py"]
[[regions]]
name = "list"
role = "list"
rows = "0..-3"
items = "row"
[[regions]]
name = "first"
role = "item"
rows = 0
[[regions]]
name = "report"
role = "status"
rows = "last-non-empty"
`;

/** A world whose daemon reads user manifests from a directory of the test's own. */
async function worldWithAdapters(files: Record<string, string> = {}): Promise<{ world: World; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "tw-adapters-"));
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  return { world: await World.start({ TUIWRIGHT_ADAPTERS_DIR: dir }), dir };
}

test("refs act on the node they named; a moved node is a stale-ref error showing what is there now", async () => {
  const { world: w } = await worldWithAdapters({ "clicker.toml": CLICKER_MANIFEST });
  await using _ = w;
  const { name } = await w.spawn(["python3", CLICKER], ["--cols", "40", "--rows", "20"]);
  await w.json(["wait", "--session", name, "--text", "no clicks yet"]);
  const snap = await w.json(["snapshot", "--session", name, "--format", "outline"]);
  expect(snap.outline.adapter).toBe("clicker");
  const list = snap.outline.nodes[0].children.find((n: any) => n.ref === "@clicker.list");
  expect(list.children.map((n: any) => [n.ref, n.name])).toEqual([["@e1", "apple"], ["@e2", "banana"], ["@e3", "cherry"]]);

  const clicked = await w.json(["click", "--session", name, "@e2", "--wait-text", "CLICK"]);
  expect(clicked.target).toEqual({ ref: "@e2", row: 1, col: 19 });
  expect((await w.json(["snapshot", "--session", name])).text).toContain("CLICK 1,19 banana");
  // The screen changed (the report line), but @e3 is still cherry: the ref still holds.
  await w.json(["click", "--session", name, "@e3", "--rev", String(snap.revision), "--wait-text", "cherry"]);

  // Insert an item at the top: everything moves down; @e3 (issued as cherry) is now banana.
  await w.json(["press", "--session", name, "i", "--wait-regex", "^NEW$"]);
  const stale = await w.run(["click", "--session", name, "@e3", "--rev", String(snap.revision)]);
  expect(stale.code).toBe(65);
  expect(stale.stderr).toMatch(/@e3 is stale: it was item "cherry" at row 2, col 0 at revision \d+; at revision \d+ @e3 is item "banana" at row 2, col 0/);
  // A durable ref resolves on the current screen.
  await w.json(["click", "--session", name, "@clicker.first", "--wait-text", "CLICK 0,"]);
  expect((await w.json(["snapshot", "--session", name])).text).toContain("CLICK 0,19 NEW");
  // A selector target must match exactly one node.
  expect((await w.json(["click", "--session", name, "item[name=cherry]", "--wait-text", "CLICK 3,"])).target.row).toBe(3);
  const ambiguous = await w.run(["click", "--session", name, "item"]);
  expect(ambiguous.code).toBe(65);
  expect(ambiguous.stderr).toContain('"item" matches 5 nodes; a target must match exactly one');
  const missing = await w.run(["click", "--session", name, "@clicker.nope"]);
  expect(missing.code).toBe(65);
  expect(missing.stderr).toContain("@clicker.nope is not on the screen now (adapter clicker");
  const unknownRev = await w.run(["click", "--session", name, "@e1", "--rev", "999999"]);
  expect(unknownRev.code).toBe(65);
  expect(unknownRev.stderr).toContain("the outline of revision 999999 is not kept");
});

test("press --to clicks the target first, then presses, in one action", async () => {
  const { world: w } = await worldWithAdapters({ "clicker.toml": CLICKER_MANIFEST });
  await using _ = w;
  const { name } = await w.spawn(["python3", CLICKER], ["--cols", "40", "--rows", "20"]);
  await w.json(["wait", "--session", name, "--text", "no clicks yet"]);
  await w.json(["snapshot", "--session", name, "--format", "outline"]);
  const result = await w.json(["press", "--session", name, "--to", "@e2", "i", "--wait-regex", "^NEW$"]);
  expect(result.target).toEqual({ ref: "@e2", row: 1, col: 19, via: "click" });
  const text = (await w.json(["snapshot", "--session", name])).text;
  expect(text).toContain("CLICK 1,19 banana");
  expect(text.split("\n").slice(0, 4)).toEqual(["NEW", "apple", "banana", "cherry"]);
});

test("click is refused when the program did not ask for mouse input, and outside the screen", async () => {
  await using w = await World.start();
  const { name } = await w.spawn(["sh", "-c", "echo hello; read x"]);
  await w.json(["wait", "--session", name, "--text", "hello"]);
  await w.json(["snapshot", "--session", name, "--format", "outline"]);
  const refused = await w.run(["click", "--session", name, "@e1"]);
  expect(refused.code).toBe(65);
  expect(refused.stderr).toContain("has not turned on mouse input");
  const outside = await w.run(["click", "--session", name, "0", "500"]);
  expect(outside.code).toBe(65);
  expect(outside.stderr).toContain("cell 0,500 is outside the 120x40 screen");
});

test("snapshot --select crops the outline and the text; --plain outline is one line per node", async () => {
  await using w = await World.start();
  const { name } = await w.spawn(["sh", "-c", "printf 'first para\\n\\n┌─ Box ─┐\\n│ inside│\\n└───────┘\\n'; read x"], ["--cols", "30", "--rows", "8"]);
  await w.json(["wait", "--session", name, "--text", "inside"]);
  const plain = await w.run(["--plain", "snapshot", "--session", name, "--format", "outline"]);
  expect(plain.stdout).toBe(['@e1 paragraph "first para"', '@e2 panel "Box"', '  @e3 paragraph "inside"', "@e4 cursor at 5,0", ""].join("\n"));
  const panel = await w.json(["snapshot", "--session", name, "--format", "outline", "--select", "panel"]);
  expect(panel.outline.nodes.map((n: any) => n.ref)).toEqual(["@e2"]);
  expect((await w.json(["snapshot", "--session", name, "--select", "panel"])).text).toBe("┌─ Box ─┐\n│ inside│\n└───────┘");
  const bad = await w.run(["snapshot", "--session", name, "--select", "panel >"]);
  expect(bad.code).toBe(65);
  expect(bad.stderr).toContain("bad selector: expected a selector at column 8\n  panel >\n         ^");
});

test("wait --ref, --ref --gone and --ref-value join the wait engine", async () => {
  await using w = await World.start();
  const { name } = await w.spawn(["sh", "-c", "read a; printf '┌─ Done ─┐\\n│ ok     │\\n└────────┘\\n'; read b; printf '\\033[2J\\033[H'; read c"]);
  const rpc = await w.rpc();
  const appears = rpc.call("wait", { session: name, ref: "panel[name=Done]", timeoutMs: 5000 });
  await w.json(["type", "--session", name, "\r"]);
  expect(((await appears) as { fired: string[] }).fired).toEqual(["ref panel[name=Done]"]);
  const gone = rpc.call("wait", { session: name, ref: "panel", gone: true, timeoutMs: 5000 });
  await w.json(["type", "--session", name, "\r"]);
  expect(((await gone) as { fired: string[] }).fired).toEqual(["ref panel gone"]);
  rpc.close();
  const timeout = await w.run(["wait", "--session", name, "--ref", "paragraph", "--ref-value", "/x/", "--timeout", "0"]);
  expect(timeout.code).toBe(124);
  expect(timeout.stderr).toContain('not met: ref paragraph = "/x/"');
  expect((await w.run(["wait", "--session", name, "--ref-value", "x"])).code).toBe(64);
});

test("a user manifest overrides the built-in of the same name and is re-read when it changes", async () => {
  const { world: w, dir } = await worldWithAdapters({ "less.toml": 'name = "less"\n[detect]\nargv0 = ["less"]\n[[regions]]\nname = "page"\nrows = "0..-2"\n' });
  await using _ = w;
  writeFileSync(join(w.dir, "long.txt"), Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n"));
  const { name } = await w.spawn(["less", join(w.dir, "long.txt")], ["--rows", "10"]);
  await w.json(["wait", "--session", name, "--ref", "@less.page"]);
  const listed = await w.json(["adapter", "list"]);
  expect(listed.adapters.find((a: any) => a.name === "less")).toMatchObject({ origin: "user", file: join(dir, "less.toml") });
  // Edit it: the next outline uses the new file, no restart.
  writeFileSync(join(dir, "less.toml"), 'name = "less"\n[detect]\nargv0 = ["less"]\n[[regions]]\nname = "content"\nrole = "document"\nrows = "0..-2"\n');
  const outline = await w.json(["snapshot", "--session", name, "--format", "outline"]);
  // The status row it no longer claims stays as generic nodes (@eN).
  expect(outline.outline.nodes[0].children.map((n: any) => n.ref).filter((ref: string) => !/^@e\d+$/.test(ref))).toEqual(["@less.content"]);
  // A broken file is reported; the built-in takes over again.
  writeFileSync(join(dir, "less.toml"), 'name = "less"\n[[regions]]\nname = "x"\nrows = "sideways"\n');
  const broken = await w.json(["adapter", "list"]);
  expect(broken.errors[0].message).toContain(`${join(dir, "less.toml")}:4: regions.0.rows: rows must be N`);
  expect(broken.adapters.find((a: any) => a.name === "less").origin).toBe("builtin");
  await w.json(["wait", "--session", name, "--ref", "@less.body"]);
});

test("adapter check validates a file and reports errors with line and key (exit 65)", async () => {
  await using w = await World.start();
  writeFileSync(join(w.dir, "good.toml"), 'name = "good"\n[[regions]]\nname = "a"\n');
  writeFileSync(join(w.dir, "bad.toml"), 'name = "bad"\n[[regions]]\nname = "a"\nitems = "column"\n');
  expect((await w.run(["adapter", "check", "good.toml"])).stdout).toBe("ok: good (@good; regions: a)\n");
  const bad = await w.run(["adapter", "check", "bad.toml"]);
  expect(bad.code).toBe(65);
  expect(bad.stderr).toContain("bad.toml:4: regions.0.items:");
  expect((await w.run(["adapter", "check", "missing.toml"])).code).toBe(66);
});
