// The logic of the verbs whose words and flags are more than their params as given: each verb is
// declared once, by its row in the method table (`cli`: words, flags, flag groups, usage), and
// the row's verb name picks its hooks here — `params` (words and flags → params, with the usage
// errors), `show` (result → text), `exitCode`, and snapshot's `out`/`save` files. Plain functions:
// the thin CLI loads no valibot. tests/unit/cli/verb-hooks.test.ts: every hook names a row.
import { TuiwrightError } from "../protocol/errors.ts";
import type { Result } from "../protocol/methods.ts";
import { usage } from "./flags.ts";
import { waitSpec } from "./flag-groups.ts";
import { readWordFile } from "./read-word-file.ts";
import { resolvePath, terminalParams } from "./spawn-params.ts";
import type { Verb } from "./verbs.ts";

export type VerbHooks = Partial<Pick<Verb, "params" | "show" | "exitCode" | "out" | "save">>;

/** `\r \n \t \e \xNN \0 \\` in send's DATA. */
function unescapeInput(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|[rnte0\\])/g, (_, code: string) => {
    if (code.startsWith("x")) return String.fromCharCode(parseInt(code.slice(1), 16));
    return ({ r: "\r", n: "\n", t: "\t", e: "\x1b", "0": "\x00", "\\": "\\" } as Record<string, string>)[code]!;
  });
}

/** ROW,COL as numbers (`flag` names it in the error). */
function cellOf(text: string, flag: string, verb: string): { row: number; col: number } {
  const match = /^(\d+),(\d+)$/.exec(text);
  if (!match) throw usage(`${flag} needs ROW,COL, got ${JSON.stringify(text)}`, verb);
  return { row: Number(match[1]), col: Number(match[2]) };
}

function xmlAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

export const VERB_HOOKS: Readonly<Record<string, VerbHooks>> = {
  spawn: {
    params(args, client) {
      const f = args.flags;
      if (f.has("--browser")) {
        if (f.has("--shell") || args.positionals.length > 0 || (args.rest && args.rest.length > 0)) throw usage("give one of --browser URL, --shell or a program after --", "spawn");
        return { browser: String(f.get("--browser")), ...terminalParams(args, client, "spawn") };
      }
      const shell = f.has("--shell") ? (args.positionals[0] ?? "auto") : null;
      if (shell === null && args.positionals.length > 0) throw usage(`spawn takes the program after --; got ${JSON.stringify(args.positionals[0])}`, "spawn");
      if (shell !== null && !["bash", "zsh", "fish", "auto"].includes(shell)) throw usage(`--shell takes bash, zsh, fish or nothing (auto); got ${JSON.stringify(shell)}`, "spawn");
      if (shell !== null && args.rest && args.rest.length > 0) throw usage("give --shell or a program after --, not both", "spawn");
      if (shell === null && (!args.rest || args.rest.length === 0)) throw usage("spawn needs a program after --, e.g. `tuiwright spawn -- bash`, or --shell", "spawn");
      if (f.has("--no-integration") && shell === null) throw usage("--no-integration goes with --shell", "spawn");
      return {
        ...(shell === null ? { argv: args.rest } : { shell, ...(f.has("--no-integration") ? { integration: false } : {}) }),
        ...terminalParams(args, client, "spawn"),
      };
    },
  },
  browse: {
    params(args, client) {
      const agentSocket = args.flags.get("--agent-socket") as string | undefined;
      return { browser: args.positionals[0], ...terminalParams(args, client, "browse"), ...(agentSocket === undefined ? {} : { agentSocket: resolvePath(client.cwd, agentSocket) }) };
    },
    show: (r: Result<"spawn">, mode) => (mode === "plain" ? r.name : `started browser session ${r.name} (pid ${r.pid}, ${r.cols}x${r.rows}): ${r.argv.at(-1)}`),
  },
  resize: {
    params(args) {
      const [cols, rows] = args.positionals.map((word, i) => {
        if (!/^\d+$/.test(word)) throw usage(`${i === 0 ? "COLS" : "ROWS"} must be a whole number, got ${JSON.stringify(word)}`, "resize");
        return Number(word);
      });
      return { cols, rows };
    },
  },
  snapshot: {
    out(args, cwd) {
      const out = args.flags.get("--out");
      return out === undefined ? null : out === "-" ? "-" : resolvePath(cwd, String(out)); // "-": standard output
    },
    save(args, cwd) {
      if (!args.flags.has("--save")) {
        if (args.flags.has("--mask") || args.flags.has("--outline")) throw usage("--mask and --outline go with --save FILE", "snapshot");
        return null;
      }
      // A snapshot file is the screen (replay compares screens): history would be dropped silently.
      if (args.flags.has("--scrollback")) throw usage("--save writes the screen only: leave out --scrollback (read history with --format text --scrollback N)", "snapshot");
      return { file: resolvePath(cwd, String(args.flags.get("--save"))), masks: (args.flags.get("--mask") as string[] | undefined) ?? [], outline: args.flags.has("--outline") };
    },
    params(args) {
      const format = args.flags.get("--format");
      if ((args.flags.has("--annotate") || args.flags.has("--chrome")) && format !== "svg" && format !== "png") throw usage("--annotate and --chrome go with --format svg or png", "snapshot");
      if (format === "png" && !args.flags.has("--out")) throw usage("--format png writes binary: give --out FILE", "snapshot");
      return {};
    },
  },
  click: {
    params(args) {
      if (args.positionals.length === 1) return { target: args.positionals[0] };
      const [row, col] = args.positionals.map((word, i) => {
        if (!/^\d+$/.test(word)) throw usage(`${i === 0 ? "ROW" : "COL"} must be a whole number, got ${JSON.stringify(word)}`, "click");
        return Number(word);
      });
      return { row, col };
    },
  },
  scroll: {
    params(args) {
      const word = args.positionals[0]!;
      if (!/^-?\d+$/.test(word) || Number(word) === 0) throw usage(`N must be a non-zero whole number of wheel steps, got ${JSON.stringify(word)}`, "scroll");
      return { delta: Number(word), ...(args.flags.has("--at") ? cellOf(String(args.flags.get("--at")), "--at", "scroll") : {}) };
    },
  },
  exec: {
    params(args, client) {
      const command = args.rest ? args.rest.join(" ") : args.positionals[0];
      if (!command) throw usage("exec needs a command: `tuiwright exec -- 'make test'`", "exec");
      if (args.rest && args.positionals.length > 0) throw usage("give the command after -- or as one argument, not both", "exec");
      return { command, ...(args.flags.has("--cwd") ? { cwd: resolvePath(client.cwd, String(args.flags.get("--cwd"))) } : {}) };
    },
    exitCode: (r: Result<"exec">, args) => (args.flags.has("--propagate") && "exitCode" in r ? (r.exitCode ?? 1) : 0),
  },
  send: {
    params(args) {
      let data = unescapeInput(args.positionals[0] ?? "");
      if (args.flags.has("--enter")) data += "\r";
      if (args.flags.has("--ctrl-c")) data += "\x03";
      if (args.flags.has("--ctrl-d")) data += "\x04";
      if (data === "") throw usage("send needs DATA or --enter/--ctrl-c/--ctrl-d", "send");
      return { data };
    },
  },
  block: {
    params(args) {
      if (!/^\d+$/.test(args.positionals[0]!)) throw usage(`SEQ must be a block number, got ${JSON.stringify(args.positionals[0])}`, "block");
      return { seq: Number(args.positionals[0]) };
    },
  },
  wait: {
    params(args) {
      const spec = waitSpec(args, "wait");
      if (!spec) throw usage("wait needs a condition: --text, --regex, --settled, --changed-since, --title, --cursor, --alt-screen or --exit", "wait");
      return { ...spec, ...(args.flags.has("--print") ? { includeText: true } : {}) };
    },
  },
  "adapter check": {
    params: (args, client) => ({ source: readWordFile(client.cwd, args.positionals[0]!, { what: "manifest" }).text, file: args.positionals[0] }),
  },
  "lease acquire": {
    params(args) {
      if (!args.flags.has("--owner")) throw usage("lease acquire needs --owner ID", "lease acquire");
      return {};
    },
  },
  // The CLI is the bridge of AOTUI §5.3 for its caller: bare DSL is wrapped in the <context> --app/--view name.
  "desktop exec": {
    params(args) {
      let command = args.positionals[0]!;
      if (!command.trimStart().startsWith("<context")) {
        const app = args.flags.get("--app") as string | undefined;
        const view = args.flags.get("--view") as string | undefined;
        command = `<context${app ? ` app_id="${xmlAttr(app)}"` : ""}${view ? ` view_id="${xmlAttr(view)}"` : ""}>${command}</context>`;
      } else if (args.flags.has("--app") || args.flags.has("--view")) {
        throw new TuiwrightError("usage", "--app/--view go with a bare DSL command; a <context> names its own app and view", { hint: "run `tuiwright help desktop exec`" });
      }
      return { command };
    },
  },
  "daemon start": {
    show: (r: Result<"daemon.status">, mode) => (mode === "plain" ? String(r.pid) : `daemon running: pid ${r.pid}, socket ${r.socket}`),
  },
};
