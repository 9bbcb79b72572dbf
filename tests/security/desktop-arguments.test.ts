// Issue 24 item 2 / issue 26 item 3: a desktop operation's argument can never run a command the
// operation did not name. Every string argument of every operation of every built-in manifest
// gets shell, vim and less metacharacters, line breaks, Escape, C0 and C1 controls, on the real
// program; a canary file that any escaped command would create never appears, and the program
// is still there to take the next value. Arguments that are commands or code by design (the
// `code` encoder: shell type_line, python evaluate; `exec` operations) get only the control
// characters, which must be refused (E_INVALID_ARG) so the value stays one line.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { BUILTIN_MANIFESTS } from "../../lib/adapters/builtins.ts";
import { encodeArgument } from "../../lib/adapters/argument-encoders.ts";
import { operationsOf, type TerminalOperation } from "../../lib/adapters/manifest-operations.ts";
import type { TuiwrightError } from "../../lib/protocol/errors.ts";
import { World } from "../helpers/harness.ts";

setDefaultTimeout(600_000);

let world: World;
let canary: string;
beforeAll(async () => {
  world = await World.start();
  canary = join(world.dir, "CANARY");
  await world.json(["desktop", "create", "--op-timeout", "20000"]);
});
afterAll(async () => { await world[Symbol.asyncDispose](); });

/** Values an escaping argument would turn into a command that creates the canary. */
function hostileValues(c: string): string[] {
  return [
    `x|!touch ${c}`,
    `+!touch\\ ${c} file`,
    `!touch ${c}`,
    `a/b/|!touch ${c}|s/qq`,
    `"|call system("touch ${c}")|"`,
    `\\"|!touch ${c}|\\"`,
    `'|call system('touch ${c}')|'`,
    `\`=system("touch ${c}")\``,
    `$(touch ${c})`,
    `;touch ${c};`,
    `%!touch ${c}`,
    `x\\`,
    ...controlValues(c),
  ];
}

/** Control characters: keys, not text, in every program here. */
function controlValues(c: string): string[] {
  return [
    `x\r:!touch ${c}\r`,
    `x\n!touch ${c}\n`,
    `x\x1b:!touch ${c}\r`,
    `x\x1b!touch ${c}\r`,
    `x\x16\r!touch ${c}\r`,
    `x\x03\rtouch ${c}\r`,
    `x\x1a\x1c`,
    `x\u009b2J\u0085!touch ${c}\r`,
  ];
}

/** The value as a DSL double-quoted word: controls as \u{…} escapes, so the agent's line stays one line. */
function dslQuote(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&").replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`)}"`;
}

/** How each manifest with operations is started for the fuzz, and what shows it is ready. */
const PROGRAMS: Record<string, { argv: (dir: string) => string[]; flags?: string[]; /** a regex */ ready: string }> = {
  vim: { argv: (dir) => ["vim", "-n", "-u", "NONE", "-N", join(dir, "fuzz.txt")], ready: "first line" },
  less: { argv: (dir) => ["less", join(dir, "fuzz.txt")], ready: "first line" },
  htop: { argv: () => ["htop"], ready: "PID" },
  top: { argv: () => ["top"], ready: "PID" },
  python: { argv: () => ["python3", "-q"], ready: ">>>" },
  shell: { argv: () => [], flags: ["--shell", "bash"], ready: "[$#] ?$" },
};

function manifestsWithOperations(): { name: string; operations: TerminalOperation[] }[] {
  return BUILTIN_MANIFESTS.map(({ source }) => {
    const raw = parse(source) as { name: string };
    return { name: raw.name, operations: operationsOf(raw) };
  }).filter((m) => m.operations.length > 0);
}

test("the fuzz knows how to start every manifest that has operations", () => {
  expect(manifestsWithOperations().map((m) => m.name).sort()).toEqual(Object.keys(PROGRAMS).sort());
});

beforeAll(() => {
  writeFileSync(join(world.dir, "fuzz.txt"), Array.from({ length: 60 }, (_, i) => (i === 0 ? "first line" : `line ${i + 1} a/b x|y`)).join("\n") + "\n");
});

for (const { name, operations } of manifestsWithOperations()) {
  test(`${name}: no argument of any operation runs a command the operation did not name`, async () => {
    const report: string[] = [];
    // One connection for the many calls (a CLI process per call costs more than the operation).
    const rpc = await world.rpc();
    const run = async (command: string): Promise<{ code: number; outcome: string }> => {
      try {
        await rpc.call("desktop.exec", { command });
        return { code: 0, outcome: "ok" };
      } catch (error) {
        const e = error as TuiwrightError;
        return { code: e.exitCode, outcome: e.message.slice(0, 60) };
      }
    };
    const program = PROGRAMS[name]!;
    const session = `fz-${name}`;
    const flags = ["--session", session, "--cwd", world.dir, "--cols", "120", ...(program.flags ?? [])];
    await world.json(["spawn", ...flags, ...(program.argv(world.dir).length > 0 ? ["--", ...program.argv(world.dir)] : [])]);
    const ready = await world.run(["wait", "-s", session, "--regex", program.ready, "--timeout", "60000"]);
    expect(ready.code, `${name} started`).toBe(0);
    const app = (await world.json(["desktop", "open-session", session])).app;
    try {
      for (const op of operations) {
        if (op.exec !== undefined) continue; // runs the command it is given, by definition
        for (const [arg, type] of Object.entries(op.args)) {
          if (type !== "string") continue; // item arguments come from the snapshot, not the agent
          const byDesign = op.encode[arg] === "code";
          for (const value of byDesign ? controlValues(canary) : hostileValues(canary)) {
            const others = Object.keys(op.args).filter((a) => a !== arg).map((a) => ` --${a} plain`).join("");
            const result = await run(`<context app_id="${app}">execute ${op.id} --${arg} ${dslQuote(value)}${others}</context>`);
            report.push(`${name} ${op.id} --${arg} ${JSON.stringify(value)} → ${result.code} ${result.outcome}`);
            expect(existsSync(canary), `${name} ${op.id} --${arg} ${JSON.stringify(value)} ran a command`).toBe(false);
            // Refused, done, or the program's own refusal — never a timeout with keys half-typed.
            expect([0, 1, 65, 66], report.at(-1)).toContain(result.code);
            // What the encoder refuses is refused before a key is sent (E_INVALID_ARG, 65).
            const refusable = (() => {
              if ([...value].length > (op.max_chars[arg] ?? Infinity)) return true;
              try { encodeArgument(op.encode[arg] ?? "text", arg, value); return false; } catch { return true; }
            })();
            if (refusable) expect(result.code, report.at(-1)).toBe(65);
            if (byDesign) expect(refusable, `${op.id} --${arg} is code: its control characters are refused`).toBe(true);
          }
        }
      }
      // Still the same program, still answering.
      const list = await world.json(["list"]);
      expect(list.sessions.find((s: any) => s.name === session).state, `${name} after the fuzz`).toBe("running");
    } finally {
      rpc.close();
      await world.run(["kill", "-s", session]);
    }
    expect(existsSync(canary)).toBe(false);
  });
}
