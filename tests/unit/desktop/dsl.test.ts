import { expect, test } from "bun:test";
import { convertArgs } from "../../../lib/desktop/convert-args.ts";
import { parseContextCommand, splitWords } from "../../../lib/desktop/dsl.ts";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";

function refused(fn: () => unknown): TuiwrightError {
  try {
    fn();
  } catch (error) {
    return error as TuiwrightError;
  }
  throw new Error("expected a refusal");
}

test("the <context> wrapper and the execute DSL of §5.3", () => {
  const command = parseContextCommand(`<context app_id="app_1" view_id="view_001">
    execute send_message --content "Hello World" --urgent -k v --title="with spaces"
  </context>`);
  expect(command).toEqual({
    kind: "execute", app: "app_1", view: "view_001", operation: "send_message",
    args: [
      { name: "content", short: false, value: "Hello World" },
      { name: "urgent", short: false, value: true },
      { name: "k", short: true, value: "v" },
      { name: "title", short: false, value: "with spaces" },
    ],
  });
});

test("the document's comma-separated attributes are accepted too", () => {
  expect(parseContextCommand(`<context app_id="app_1", view_id="view_002">execute x</context>`)).toMatchObject({ app: "app_1", view: "view_002" });
});

test("system commands", () => {
  expect(parseContextCommand("<context>open --application app_3</context>")).toEqual({ kind: "system", app: undefined, view: undefined, verb: "open", target: "app_3" });
  expect(parseContextCommand("<context>show --application app_3</context>")).toMatchObject({ verb: "show-application" });
  expect(parseContextCommand("<context>show --view view_004</context>")).toMatchObject({ verb: "show-view", target: "view_004" });
  for (const verb of ["close", "collapse"]) expect(parseContextCommand(`<context>${verb} --application a</context>`)).toMatchObject({ verb });
  for (const verb of ["mount", "dismount", "hide"]) expect(parseContextCommand(`<context>${verb} --view v</context>`)).toMatchObject({ verb });
});

test("quoting: double quotes with escapes, single quotes, --key=value", () => {
  expect(splitWords(`a "b \\"c\\" d" 'e f' --x="y z"`)).toEqual(["a", 'b "c" d', "e f", "--x=y z"]);
});

test("newlines and other characters a line cannot hold: \\n \\r \\t \\e \\xHH \\u{HEX} in double quotes; single quotes and unknown escapes stay literal", () => {
  expect(splitWords(String.raw`--content "two\nlines\tand\r\e\x41\u{1F600}\\n" 'not\n' "C:\dir"`)).toEqual(["--content", "two\nlines\tand\r\x1bA\u{1F600}\\n", "not\\n", "C:\\dir"]);
  const parsed = parseContextCommand(String.raw`<context app_id="app_1">execute send_message --content "Hello,\nworld"</context>`);
  expect(parsed).toMatchObject({ kind: "execute", args: [{ name: "content", value: "Hello,\nworld" }] });
  expect(refused(() => parseContextCommand(String.raw`<context>execute x --a "\u{110000}"</context>`)).message).toContain("is not a Unicode code point");
});

test("malformed commands are E_INVALID_CMD (recoverable) with what is wrong", () => {
  const cases: [string, string][] = [
    ["execute x", "expected <context"],
    ["<context></context>", "holds no command"],
    ["<context>fly --application a</context>", 'unknown command "fly"'],
    ["<context>open app_3</context>", "open --application <app_id>"],
    ["<context>mount --application x</context>", "mount --view <view_id>"],
    [`<context app="x">open --application a</context>`, 'unknown <context> attribute "app"'],
    ["<context>execute</context>", "execute needs an operation id"],
    [`<context>execute x --content "open</context>`, 'unclosed "'],
    ["<context>execute x stray</context>", 'expected --name or -n before "stray"'],
    ["<context>open --application a\nclose --application a</context>", "one command per <context>"],
  ];
  for (const [text, message] of cases) {
    const error = refused(() => parseContextCommand(text));
    expect(error.errorName).toBe("invalid-command");
    expect(error.message).toStartWith("E_INVALID_CMD: ");
    expect(error.message).toContain(message);
    expect(error.details).toEqual({ aotui: "E_INVALID_CMD", recoverable: true });
    expect(error.exitCode).toBe(65);
  }
});

test("arguments are converted by the operation's schema", () => {
  const specs = [
    { name: "content", type: "string", optional: false },
    { name: "count", type: "integer", optional: true },
    { name: "urgent", type: "boolean", optional: true },
    { name: "item", type: "todo", optional: true },
  ];
  const resolve = (list: string, index: number) => ({ item: { label: "x", key: `k${index}`, value: { id: `${list}-${index}` } }, type: "todo" });
  const args = (words: string) => convertArgs("op", specs, (parseContextCommand(`<context>execute op ${words}</context>`) as any).args, resolve);
  expect(args(`--content hi --count 3 -u --item todo_list[2]`)).toEqual({ args: { content: "hi", count: 3, urgent: true, item: { id: "todo_list-2" } }, stableKeys: ["k2"] });
  const problems: [string, string][] = [
    ["--content hi --colour red", 'op has no argument "colour" (arguments: content, count, urgent, item)'],
    ["--count 3", "op needs --content (string)"],
    ["--content hi --count 2.5", "op --count must be an integer"],
    ["--content hi --urgent maybe", "op --urgent is a flag"],
    ["--content", "op --content needs a value (string)"],
    ["--content hi --item first", 'op --item takes a reference to a todo item such as list_id[0], got "first"'],
    ["--content a --content b", "given twice"],
    ["--content a -c 3", "-c does not name exactly one argument of op"],
  ];
  for (const [words, message] of problems) {
    const error = refused(() => args(words));
    expect(error.errorName).toBe("invalid-command");
    expect(error.message).toContain(message);
  }
  // The hint names the lists of that item type the view shows, not a guessed list name.
  const hinted = refused(() => convertArgs("op", specs, (parseContextCommand(`<context>execute op --content a --item 3</context>`) as any).args, resolve, () => ["inbox", "archive"]));
  expect(hinted.message).toContain('op --item takes an item of inbox or archive such as inbox[0], got "3"');
});
