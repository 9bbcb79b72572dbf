import { afterEach, expect, test } from "bun:test";
import { detectManifest } from "../../../lib/adapters/detect.ts";
import { loadManifest } from "../../../lib/adapters/load-manifest.ts";
import { manifestOutline } from "../../../lib/adapters/manifest-outline.ts";
import { BUILTIN_MANIFESTS } from "../../../lib/adapters/builtins.ts";
import { compactOutline } from "../../../lib/outline/compact.ts";
import { assignRefs } from "../../../lib/outline/refs.ts";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";
import { Screen } from "../../../lib/terminal/screen.ts";

let screen: Screen;
afterEach(() => screen?.dispose());

function problems(source: string): string {
  try {
    loadManifest(source, "my.toml");
  } catch (error) {
    expect((error as TuiwrightError).errorName).toBe("bad-manifest");
    expect((error as TuiwrightError).exitCode).toBe(65);
    return (error as TuiwrightError).message;
  }
  throw new Error("expected the manifest to be refused");
}

test("every built-in manifest loads", () => {
  for (const { file, source } of BUILTIN_MANIFESTS) expect(loadManifest(source, file).name).toBeTruthy();
});

test("errors name the file, the line and the key", () => {
  expect(problems('name = "x"\n[detect]\nargv0 = ["x"]\ncolour = "red"\n')).toContain('my.toml:4: detect.colour: unknown key "colour"');
  expect(problems('name = "x"\n\n[[regions]]\nname = "a"\n\n[[regions]]\nname = "b"\nfrom = "/(unclosed/"\n')).toContain("my.toml:8: regions.1.from: invalid regex \"/(unclosed/\"");
  expect(problems('name = "x"\n[[regions]]\nname = "a"\nrows = "top..bottom"\n')).toContain("my.toml:4: regions.0.rows: rows must be N");
  expect(problems('name = "x"\n[[regions]]\nname = "a"\ncols = [1]\n')).toContain("my.toml:4: regions.0.cols: cols must be N");
  expect(problems('name = "x"\n[[regions]]\nname = "a"\nfg = "purple"\n')).toContain("my.toml:4: regions.0.fg: a colour is 0-255");
  expect(problems('name = "x"\n[[regions]]\nname = "a"\n[[values]]\nregion = "nope"\nregex = "x"\n')).toContain('my.toml:5: values.0.region: no region named "nope"');
  expect(problems('name = "Bad Name"\n')).toContain("my.toml:1: name:");
  expect(problems('name = "x"\n[detect\n')).toContain("my.toml:2: TOML:");
  expect(problems('[detect]\nargv0 = ["x"]\n')).toContain('my.toml:1: name: missing required key "name"');
});

const MANIFEST = `
name = "demo"
[detect]
argv0 = ["demo"]
[[regions]]
name = "title"
rows = 0
[[regions]]
name = "list"
role = "list"
rows = "1..-2"
after = "/^Items:/"
to = "/^--/"
items = "row"
[[regions]]
name = "body"
rows = "1..-2"
to_attrs = { inverse = true }
[[regions]]
name = "bar"
rows = "-1"
inverse = true
[[regions]]
name = "bar"
rows = "-1"
[[regions]]
name = "keys"
rows = "-1"
items = '/F\\d+\\D*?(?=F\\d|$)/'
item_role = "key"
[[values]]
region = "title"
regex = '/^Demo (?<value>v\\d+)/'
[[values]]
region = "bar"
regex = '/^(?<value>:)/'
cursor_in = true
map = { ":" = "command" }
default = "idle"
[[focus]]
region = "list"
when = "always"
`;

async function outline(lines: string[], cursor?: [number, number]) {
  screen = new Screen({ cols: 30, rows: lines.length, scrollback: 0 });
  await screen.write(lines.join("\r\n") + (cursor ? `\x1b[${cursor[0] + 1};${cursor[1] + 1}H` : ""));
  return assignRefs(manifestOutline(loadManifest(MANIFEST, "demo.toml"), screen.grid()));
}

test("regions: rows, anchors, attribute rows, items, values, focus and alternatives", async () => {
  const nodes = await outline(["Demo v2", "Items:", "alpha", "\x1b[7mbeta\x1b[0m", "-- end --", "\x1b[7mF1Help F2Quit\x1b[0m"]);
  expect(compactOutline(nodes)).toEqual([
    '@demo application',
    '  @demo.title region "Demo v2" = "v2"',
    '  @demo.body region "Items: ⏎ alpha ⏎ beta ⏎ -- end --"',
    '  @demo.list list (2 items) [focused]', // its items carry all its text
    '    @e1 item "alpha"',
    '    @e2 item "beta"',
    // The cursor was left at the end of the last row.
    '  @demo.bar region "F1Help F2Quit" = "idle" [focused]',
    '  @demo.keys region (2 items) [focused]',
    '    @e3 key "F1Help"',
    '    @e4 key "F2Quit"',
  ]);
  // beta is only a few columns of inverse: not a selection bar.
  expect(nodes[0]!.children![2]!.children![1]!.selected).toBeUndefined();
  // A region whose items carry all its text is named by its label, once: the text is in its
  // items; a region with text of its own beside its items keeps it (container-name.ts).
  const byRef = Object.fromEntries(nodes[0]!.children!.map((n) => [n.ref, n]));
  expect(byRef["@demo.list"]!.name).toBe("list");
  expect(byRef["@demo.keys"]!.name).toBe("keys");
  expect(byRef["@demo.body"]!.name).toBe("Items:\nalpha\nbeta\n-- end --");
  // Evidence on the node's own cells leaves them out (a table's rows share one entry per rule).
  expect(byRef["@demo.list"]!.evidence![0]).toEqual({ source: "manifest", adapter: "demo", rule: "regions.1", revision: 0 });
});

test("to_attrs stops a region before an inverse row; cursor_in values need the cursor", async () => {
  const nodes = await outline(["Demo v3", "text", "\x1b[7m status line              \x1b[0m", ":w"], [3, 2]);
  const byRef = Object.fromEntries(nodes[0]!.children!.map((n) => [n.ref, n]));
  expect(byRef["@demo.body"]!.name).toBe("text");
  expect(byRef["@demo.bar"]).toMatchObject({ name: ":w", value: "command", focused: true });
  expect(byRef["@demo.list"]).toBeUndefined(); // no "Items:" anchor on screen
});

test("detection: argv0 or the foreground process, exclusions, screen regex, confidence", () => {
  const manifests = BUILTIN_MANIFESTS.map(({ file, source }) => loadManifest(source, file));
  const pick = (argv: string[], foreground: string[] | null = null, screenText = "", altScreen = false) =>
    detectManifest(manifests, { argv, foreground, screenText, title: "", altScreen })?.name ?? null;
  // vim only once it has drawn on its alternate screen (evidence, not its name alone).
  expect(pick(["/usr/bin/vim", "x"], null, "alpha\n~", true)).toBe("vim");
  expect(pick(["/usr/bin/vim", "x"], null, "", true)).toBe(null);
  expect(pick(["/usr/bin/vim", "x"], null, "alpha\n~", false)).toBe(null);
  expect(pick(["bash"], ["vim", "notes.txt"], "~", true)).toBe("vim");
  expect(pick(["bash"])).toBe("shell");
  expect(pick(["python3"], null, "Python 3.11\n>>> ")).toBe("python");
  // A script is no REPL (no >>> prompt): a line program of its own, unless it shows the prompt
  // (-i) or runs a module (-m pdb, -m http.server).
  expect(pick(["python3", "script.py"], null, "running")).toBe("python-script");
  expect(pick(["python3", "-i", "script.py"], null, "done\n>>> ")).toBe("python");
  expect(pick(["python3", "-m", "http.server"], null, "Serving HTTP")).toBe(null);
  expect(pick(["python3", "-m", "pdb", "script.py"], null, "> script.py(1)")).toBe(null);
  expect(pick(["git", "log"])).toBe("git");
  expect(pick(["git", "status"])).toBe(null);
  expect(pick(["nothing-known"])).toBe(null);
});

test("the new region keys are checked: when, key, unless_screen/when_screen, panes", () => {
  expect(problems('name = "x"\n[[regions]]\nname = "a"\nwhen = "always"\n')).toContain('my.toml:4: regions.0.when: when must be one of "shell-foreground"');
  expect(problems('name = "x"\n[[regions]]\nname = "a"\nkey = "/(?<key>/"\n')).toContain("my.toml:4: regions.0.key: invalid regex");
  expect(problems('name = "x"\n[[regions]]\nname = "a"\nunless_screen = "/[/"\n')).toContain("my.toml:4: regions.0.unless_screen: invalid regex");
  expect(problems('name = "x"\n[[regions]]\nname = "a"\nwhen_screen = "/[/"\n')).toContain("my.toml:4: regions.0.when_screen: invalid regex");
  expect(problems('name = "x"\npanes = "Pane One"\n')).toContain("my.toml:2: panes:");
});

test("process facts, screen conditions, keys, and what no region claims", async () => {
  const source = `
name = "facts"
[[regions]]
name = "prompt"
role = "input"
rows = "cursor"
when = "shell-foreground"
[[regions]]
name = "list"
rows = "0..1"
items = "row"
key = '/^(?<key>\\d+)/'
unless_screen = '/QUESTION/'
[[regions]]
name = "menu"
rows = "2"
when_screen = '/MENU/'
`;
  const manifest = loadManifest(source, "facts.toml");
  screen = new Screen({ cols: 30, rows: 4, scrollback: 0 });
  await screen.write("10 ten\r\n20 twenty\r\nMENU here\r\n$ ");
  const refs = (shellForeground: boolean | null) => {
    const nodes = assignRefs(manifestOutline(manifest, screen.grid(), { shellForeground }));
    return compactOutline(nodes);
  };
  expect(refs(true)).toEqual([
    "@facts application",
    "  @facts.list region (2 items)",
    '    @e1 item "10 ten"',
    '    @e2 item "20 twenty"',
    '  @facts.menu region "MENU here"',
    '  @facts.prompt input "$" [focused]',
  ]);
  // Without the fact (a replay, or a command owning the terminal) the prompt is not claimed:
  // its row stays as generic text.
  expect(refs(false).join("\n")).not.toContain("@facts.prompt");
  expect(refs(null).join("\n")).toContain('paragraph "$"');
  const nodes = assignRefs(manifestOutline(manifest, screen.grid(), { shellForeground: true }));
  const items = nodes[0]!.children!.find((n) => n.ref === "@facts.list")!.children!;
  expect(items.map((n) => n.key)).toEqual(["10", "20"]);
  await screen.write("\x1b7\x1b[3;1H\x1b[2KQUESTION?\x1b8"); // the cursor stays on the prompt row
  const after = compactOutline(assignRefs(manifestOutline(manifest, screen.grid(), { shellForeground: true }))).join("\n");
  expect(after).not.toContain("@facts.list");
  expect(after).not.toContain("@facts.menu");
  expect(after).toContain('"10 ten ⏎ 20 twenty ⏎ QUESTION?');
});

const CHAT = `
name = "chat"
[[regions]]
name = "input"
role = "input"
last = true
after = '/^-{5,}$/'
to = '/^-{5,}$/'
[[regions]]
name = "answer"
after_attrs = { bg = "blue" }
to = '/^-{5,}$/'
[[regions]]
name = "done"
after_attrs = { bg = "blue" }
to = '/^-{5,}$/'
requires = '/^end of turn$/'
unless = '/^\\* working/'
[[focus]]
region = "input"
when = "attrs"
attrs = { inverse = true }
`;

async function chat(lines: string[]) {
  screen = new Screen({ cols: 30, rows: lines.length, scrollback: 0 });
  await screen.write(lines.join("\r\n"));
  const nodes = assignRefs(manifestOutline(loadManifest(CHAT, "chat.toml"), screen.grid()));
  return Object.fromEntries(nodes[0]!.children!.map((n) => [n.ref, n]));
}

test("chat screens: last = true anchors from the bottom, after_attrs, requires, unless, focus by a drawn cursor", async () => {
  const blue = (text: string) => `\x1b[44m${text.padEnd(30)}\x1b[0m`;
  // A rule inside an earlier answer does not move the input: it is between the last two rules.
  let byRef = await chat([blue("first question"), "-----", "old answer", blue("second question"), "new answer", "* working", "-----", "typed\x1b[7m \x1b[0m", "-----", "footer"]);
  expect(byRef["@chat.input"]).toMatchObject({ name: "typed", focused: true });
  expect(byRef["@chat.answer"]!.name).toBe("new answer\n* working"); // below the last blue row
  expect(byRef["@chat.done"]).toBeUndefined(); // a spinner row: unless holds it back (and no end line)
  byRef = await chat([blue("q"), "new answer", "-----", "typed", "-----", "footer"]);
  expect(byRef["@chat.done"]).toBeUndefined(); // no end-of-turn line: requires holds it back
  expect(byRef["@chat.input"]!.focused).toBeUndefined(); // no inverse cell drawn
  byRef = await chat([blue("q"), "new answer", "end of turn", "-----", "", "-----"]);
  expect(byRef["@chat.done"]!.name).toBe("new answer\nend of turn");
});

test("focus when = \"attrs\" needs attrs, and attrs needs it", () => {
  expect(problems(`name = "x"\n[[regions]]\nname = "a"\n[[focus]]\nregion = "a"\nwhen = "attrs"\n`)).toContain('my.toml:6: focus.0.when: when = "attrs" goes with attrs');
  expect(problems(`name = "x"\n[[regions]]\nname = "a"\n[[focus]]\nregion = "a"\nwhen = "cursor"\nattrs = { bold = true }\n`)).toContain("focus.0.when");
});

test("unless_within holds a region back when one of its own rows matches; unless looks at all of its rows", async () => {
  const manifest = loadManifest(`
name = "ends"
[[regions]]
name = "done"
after_attrs = { bg = "blue" }
to = '/^-{5,}$/'
unless_within = '/^Error: /'
`, "ends.toml");
  const outline = async (lines: string[]) => {
    screen = new Screen({ cols: 30, rows: lines.length, scrollback: 0 });
    await screen.write(lines.join("\r\n"));
    return assignRefs(manifestOutline(manifest, screen.grid()))[0]!.children!.map((n) => n.ref);
  };
  const blue = (text: string) => `\x1b[44m${text.padEnd(30)}\x1b[0m`;
  // An error under an earlier prompt does not hold back the answer under the last one.
  expect(await outline([blue("q1"), "Error: 500", blue("q2"), "the answer", "-----"])).toContain("@ends.done");
  expect(await outline([blue("q1"), "an answer", blue("q2"), "Error: 500", "-----"])).not.toContain("@ends.done");
});

test("placeholder cells (an empty input's dim hint, a drawn cursor on its first letter) are no text and no value", async () => {
  const manifest = loadManifest(`
name = "box"
[[regions]]
name = "input"
role = "input"
rows = 0
placeholder = { dim = true }
[[values]]
region = "input"
regex = '/^> (?<value>.+?)\\s*$/'
`, "box.toml");
  const input = async (row: string) => {
    screen = new Screen({ cols: 40, rows: 2, scrollback: 0 });
    await screen.write(row);
    return assignRefs(manifestOutline(manifest, screen.grid()))[0]!.children!.find((n) => n.ref === "@box.input")!;
  };
  const empty = await input("> \x1b[7mR\x1b[0m\x1b[2mesend your message\x1b[0m");
  expect(empty.name).toBe(">");
  expect(empty.value).toBeUndefined();
  const typed = await input("> typed text\x1b[7m \x1b[0m");
  expect(typed.value).toBe("typed text");
  expect(problems(`name = "x"\n[[regions]]\nname = "a"\nplaceholder = { faint = true }\n`)).toContain('regions.0.placeholder.faint: unknown key "faint"');
});

test("turns = true needs the input and done regions of the turn vocabulary", () => {
  expect(problems(`name = "x"\nturns = true\n[[regions]]\nname = "input"\n`)).toContain('my.toml:2: turns: turns = true needs a region named "done"');
  expect(loadManifest(`name = "x"\nturns = true\n[[regions]]\nname = "input"\n[[regions]]\nname = "done"\n`, "x.toml").turns).toBe(true);
});

test("strikethrough = true: the rows with struck-through cells (a command rejected at its approval)", async () => {
  const manifest = loadManifest(`
name = "ends"
[[regions]]
name = "denied"
until = '/^== end/'
strikethrough = true
`, "ends.toml");
  const outline = async (lines: string[]) => {
    screen = new Screen({ cols: 30, rows: lines.length, scrollback: 0 });
    await screen.write(lines.join("\r\n"));
    return assignRefs(manifestOutline(manifest, screen.grid()))[0]!.children!.filter((n) => n.ref === "@ends.denied").map((n) => n.name);
  };
  expect(await outline(["ask", "\x1b[9m$ rm -rf build\x1b[0m", "== end"])).toEqual(["$ rm -rf build"]);
  expect(await outline(["ask", "$ rm -rf build", "== end"])).toEqual([]); // the same text, not struck through
  expect(problems(`name = "x"\n[[regions]]\nname = "a"\nstrikethrough = "yes"\n`)).toContain("regions.0.strikethrough");
});

test("alt_screen = false: a line program's cursor row is an input on the main screen only, and only with the cursor shown", async () => {
  const manifest = loadManifest(`
name = "lines"
[[regions]]
name = "line"
role = "input"
rows = "cursor"
alt_screen = false
needs_cursor = true
`, "lines.toml");
  const line = async (setup: string) => {
    screen = new Screen({ cols: 30, rows: 5, scrollback: 0 });
    await screen.write(setup);
    const node = assignRefs(manifestOutline(manifest, screen.grid()))[0]!.children!.find((n) => n.ref === "@lines.line");
    return node ? { role: node.role, focused: node.focused === true, row: node.bbox.row } : null;
  };
  expect(await line("out\r\n> typed")).toEqual({ role: "input", focused: true, row: 1 });
  expect(await line("\x1b[?1049hfull screen")).toBeNull(); // a full-screen program owns the keys
  expect(await line("out\r\n\x1b[?25l")).toBeNull(); // no cursor shown: no evidence where text lands
  expect(problems(`name = "x"\n[[regions]]\nname = "r"\nalt_screen = "no"\n`)).toContain("alt_screen");
});

test("focus_item: the item with the cursor, or the one drawn in the focus attributes, is focused and cites the rule", async () => {
  const source = (rule: string) => `
name = "box"
[[regions]]
name = "buttons"
rows = "0..-1"
items = '/<[^<>]+>/'
focus_item = ${rule}
`;
  const focused = async (rule: string, setup: string) => {
    screen = new Screen({ cols: 30, rows: 3, scrollback: 0 });
    await screen.write(setup);
    const region = assignRefs(manifestOutline(loadManifest(source(rule), "box.toml"), screen.grid()))[0]!.children!.find((n) => n.ref === "@box.buttons")!;
    return region.children!.filter((n) => n.focused).map((n) => [n.name, n.evidence?.map((e) => ("rule" in e ? e.rule : e.source))]);
  };
  // The cursor on <No>: that button, not <Yes>.
  expect(await focused('"cursor"', "  <Yes>   <No>\x1b[1;12H")).toEqual([["<No>", ["regions.0.focus_item"]]]);
  expect(await focused('"cursor"', "  <Yes>   <No>\x1b[2;1H")).toEqual([]);
  expect(await focused('{ bg = "red" }', "  \x1b[41m<Yes>\x1b[0m   <No>")).toEqual([["<Yes>", ["regions.0.focus_item"]]]);
  expect(problems(source('"always"'))).toContain("focus_item");
});

test("focus_root = true: the root node is focused whatever the screen shows, and cites the rule", async () => {
  const root = async (source: string) => {
    screen = new Screen({ cols: 20, rows: 3, scrollback: 0 });
    await screen.write("help page\r\npress q");
    const node = assignRefs(manifestOutline(loadManifest(source, "app.toml"), screen.grid()))[0]!;
    return [node.ref, node.focused ?? false, node.evidence?.map((e) => ("rule" in e ? e.rule : e.source))];
  };
  expect(await root('name = "app"\nfocus_root = true\n')).toEqual(["@app", true, ["detect", "focus_root"]]);
  expect(await root('name = "app"\n')).toEqual(["@app", false, ["detect"]]);
  expect(problems('name = "app"\nfocus_root = "yes"\n')).toContain("my.toml:2: focus_root:");
});

// A chat's last prompt is a row padded with a background to the width it was drawn at; after the
// terminal grew wider that background covers only the old columns (Gemini CLI widened from 50 to
// 120 columns while it streamed: its prompt's bar was 50 of 120 cells, "mostly" failed, and the
// answer anchored after it — @gemini.response, @gemini.done — was never found; the turn stayed
// running). A row that ends in such padding is measured to the padding's end; a short word in
// a highlight is still measured across the row (it is no bar).
test("after_attrs: a prompt row padded with its background before the terminal grew wider still anchors", async () => {
  const manifest = loadManifest(`
name = "chat"
root = "chat"
[detect]
screen = '/^> /m'
[[regions]]
name = "answer"
after_attrs = { bg = "#1c1c1c" }
from = '/^✦ /'
[[regions]]
name = "body"
to_attrs = { inverse = true }
`, "chat.toml");
  screen = new Screen({ cols: 50, rows: 6, scrollback: 0 });
  await screen.write(`\x1b[48;2;28;28;28m> the prompt${" ".repeat(38)}\x1b[0m\r\n\r\n`);
  screen.resize(120, 6);
  await screen.write("✦ the answer\r\nword \x1b[7mhi\x1b[0m\r\nlast");
  const names = (nodes: ReturnType<typeof manifestOutline>) => compactOutline(assignRefs(nodes)).join("\n");
  const shown = names(manifestOutline(manifest, screen.grid()));
  expect(shown).toContain(`@chat.answer region "✦ the answer`);
  // The highlighted word's row is no bar: the body runs on past it.
  expect(shown).toContain(`@chat.body region "> the prompt ⏎⏎ ✦ the answer ⏎ word hi ⏎ last"`);
});
