// The flag parser every verb uses: strings, whole numbers, durations, repeatable lists and
// switches, `--flag=value`, aliases, `--` ending the flags, and a usage error (exit 64) naming
// the flag for anything it cannot take.
import { expect, test } from "bun:test";
import { describeFlags, MAX_DURATION_MS, parseFlags, type FlagSpec } from "../../../lib/cli/flags.ts";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";

const SPECS: FlagSpec[] = [
  { name: "--timeout", type: "int", value: "MS", description: "how long" },
  { name: "--count", aliases: ["-n"], type: "int", value: "N", description: "how many" },
  { name: "--format", type: "string", value: "FMT", choices: ["text", "png"], description: "which format" },
  { name: "--cwd", type: "string", value: "DIR", description: "where" },
  { name: "--env", type: "list", value: "K=V", description: "environment" },
  { name: "--raw", type: "bool", description: "unprocessed" },
];

function usage(args: string[], freePositionals = 0): TuiwrightError {
  try {
    parseFlags(args, SPECS, "verb", freePositionals);
  } catch (error) {
    expect(error).toBeInstanceOf(TuiwrightError);
    const usageError = error as TuiwrightError;
    expect(usageError.errorName).toBe("usage");
    expect(usageError.exitCode).toBe(64);
    expect(usageError.hint).toBe("run `tuiwright help verb` for the flags");
    return usageError;
  }
  throw new Error(`expected ${JSON.stringify(args)} to be refused`);
}

test("each flag type, both value forms and aliases; positionals in order; no `--` means no rest", () => {
  const parsed = parseFlags(["a", "--timeout", "500", "--format=png", "-", "--raw", "--env", "A=1", "--env=B=2", "-n", "3", "--cwd=", "b"], SPECS, "verb");
  expect(Object.fromEntries(parsed.flags)).toEqual({ "--timeout": 500, "--format": "png", "--raw": true, "--env": ["A=1", "B=2"], "--count": 3, "--cwd": "" });
  expect(parsed.positionals).toEqual(["a", "-", "b"]);
  expect(parsed.rest).toBeNull();
});

test("everything after `--` is returned untouched, flags included", () => {
  const parsed = parseFlags(["--raw", "x", "--", "ls", "--timeout", "--", "-la"], SPECS, "verb");
  expect(parsed.rest).toEqual(["ls", "--timeout", "--", "-la"]);
  expect(parsed.positionals).toEqual(["x"]);
  expect(parseFlags(["--"], SPECS, "verb").rest).toEqual([]);
});

test("a single-dash word is a flag only when the verb declares it so", () => {
  expect(Object.fromEntries(parseFlags(["-n", "4", "-x", "-"], SPECS, "verb").flags)).toEqual({ "--count": 4 });
  expect(parseFlags(["-n", "4", "-x", "-"], SPECS, "verb").positionals).toEqual(["-x", "-"]);
});

test("a value that looks like a flag is still the value", () => {
  expect(parseFlags(["--cwd", "--raw"], SPECS, "verb").flags.get("--cwd")).toBe("--raw");
  expect(parseFlags(["--count", "-5"], SPECS, "verb").flags.get("--count")).toBe(-5);
});

test("an unknown flag is refused, suggesting the nearest flag of the verb or a global one", () => {
  expect(usage(["--timout", "5"]).message).toBe("unknown flag --timout for `verb` (did you mean --timeout?)");
  expect(usage(["--sesion", "x"]).message).toBe("unknown flag --sesion for `verb` (did you mean --session?)");
  expect(usage(["--zzzzzz"]).message).toBe("unknown flag --zzzzzz for `verb`");
  expect(usage(["--timout=5"]).message).toStartWith("unknown flag --timout for `verb`");
});

test("an unknown dash-word fills a free positional (text to type) instead, while one is free", () => {
  expect(parseFlags(["--version"], SPECS, "verb", 1).positionals).toEqual(["--version"]);
  expect(usage(["--version", "--help"], 1).message).toStartWith("unknown flag --help for `verb`");
});

test("missing values, values given to a switch, bad numbers and choices each say what is wrong", () => {
  expect(usage(["--timeout"]).message).toBe("--timeout needs a value (MS)");
  expect(usage(["--raw=yes"]).message).toBe("--raw takes no value");
  expect(usage(["--count", "3.5"]).message).toBe('--count needs a whole number, got "3.5"');
  expect(usage(["-n", "x"]).message).toBe('-n needs a whole number, got "x"');
  expect(usage(["--count="]).message).toBe('--count needs a whole number, got ""');
  expect(usage(["--format", "gif"]).message).toBe('--format is one of text, png; got "gif"');
});

test("a duration (MS) is 0 up to the timer limit; a plain number is not bounded", () => {
  expect(parseFlags(["--timeout", "0"], SPECS, "verb").flags.get("--timeout")).toBe(0);
  expect(parseFlags(["--timeout", String(MAX_DURATION_MS)], SPECS, "verb").flags.get("--timeout")).toBe(2 ** 31 - 1);
  expect(usage(["--timeout", String(2 ** 31)]).message).toBe(`--timeout must be 0..${MAX_DURATION_MS} ms (the timer limit), got ${2 ** 31}`);
  expect(usage(["--timeout=-1"]).message).toBe(`--timeout must be 0..${MAX_DURATION_MS} ms (the timer limit), got -1`);
  expect(parseFlags(["--count", String(2 ** 40)], SPECS, "verb").flags.get("--count")).toBe(2 ** 40);
});

test("the flag table for help: names and value aligned, lists marked repeatable", () => {
  expect(describeFlags(SPECS).split("\n")).toEqual([
    "  --timeout MS   how long",
    "  --count, -n N  how many",
    "  --format FMT   which format",
    "  --cwd DIR      where",
    "  --env K=V      environment (repeatable)",
    "  --raw          unprocessed",
  ]);
  expect(describeFlags([])).toBe("");
});

test("every flag of every command starts with a dash, so a word without one is never a flag", async () => {
  // parseFlags builds its name table only at the first dash-word and relies on this.
  const { helpEntries } = await import("../../../lib/cli/help-entries.ts");
  const names = helpEntries().flatMap((entry) => entry.flags.flatMap((flag) => [flag.name, ...(flag.aliases ?? [])]));
  expect(names.length).toBeGreaterThan(100);
  expect(names.filter((name) => !name.startsWith("-"))).toEqual([]);
});

test("with no dash-word the verb's flags are never read", () => {
  const untouchable: FlagSpec = { name: "--lazy", type: "bool", description: "", get aliases(): string[] { throw new Error("read"); } };
  expect(parseFlags(["a", "b"], [untouchable], "verb", 2).positionals).toEqual(["a", "b"]);
  expect(() => parseFlags(["-a"], [untouchable], "verb", 2)).toThrow("read");
});
