// `tuiwright desktop …`: the AOTUI desktop verbs, one per desktop.* method. The CLI is the
// bridge of §5.3 for its caller: exec resolves item references against the desktop's latest
// snapshot unless --snapshot-id names one.
import { resolve as resolvePath } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";
import type { FlagSpec, ParsedArgs } from "./flags.ts";
import type { Verb } from "./verbs.ts";
import { readWordFile } from "./read-word-file.ts";

/** Every desktop.* method but create takes `desktop`; the flag sets it as given. The desktop
 * verbs that only map words and flags onto params are declared in the method table; their
 * results read as lib/present/result-text.ts has them. */
const DESKTOP: FlagSpec = { name: "--desktop", aliases: ["-d"], type: "string", value: "ID", description: "the desktop (default: the only one)", param: "desktop" };

function xmlAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

/** `desktop new-app` and `desktop inspect` run in entries/desktop.ts (not one method call). */
export const NEW_APP_VERB = {
  name: "desktop new-app",
  summary: "write a minimal working HTML5 app (aoapp.json, a view with a list and operations) into a new directory",
  usage: "desktop new-app DIR",
  flags: [] as FlagSpec[],
};

export const INSPECT_VERB = {
  name: "desktop inspect",
  summary: "the AOTUI Inspector: a terminal UI with the desktop's live Markdown and its signal/command log (: runs a command)",
  usage: "desktop inspect [--desktop ID]",
  flags: [DESKTOP],
};

export const DESKTOP_VERBS: Verb[] = [
  {
    name: "desktop create",
    summary: "create an AOTUI agent desktop (ChatWithUser and ThoughtRecorder open) with these HTML5 app folders installed",
    usage: "desktop create [APP_DIR...] [--open] [--op-timeout MS]",
    method: "desktop.create",
    autoStart: true,
    positionals: [0, Infinity],
    flags: [
      { name: "--open", type: "bool", description: "open the installed apps at once" },
      { name: "--op-timeout", type: "int", value: "MS", description: "an operation fails with E_TIMEOUT after MS (default 10000)" },
    ],
    params(args, client) {
      return {
        apps: args.positionals.map((dir) => resolvePath(client.cwd, dir)),
        open: args.flags.get("--open") === true,
        ...(args.flags.has("--op-timeout") ? { operationTimeoutMs: args.flags.get("--op-timeout") } : {}),
      };
    },
  },
  {
    name: "desktop exec",
    summary: "run one command on the desktop: <context …>DSL</context>, or bare DSL with --app/--view",
    usage: "desktop exec COMMAND [--app APP] [--view VIEW] [--desktop ID] [--owner ID] [--snapshot-id T]",
    method: "desktop.exec",
    positionals: [1, 1],
    flags: [
      DESKTOP,
      { name: "--app", type: "string", value: "APP", description: "the app (app_N or its id) for a bare DSL command" },
      { name: "--view", type: "string", value: "VIEW", description: "the view (view_NNN) for a bare DSL command" },
      { name: "--owner", type: "string", value: "ID", description: "your owner id, when the desktop's input is held" },
      { name: "--snapshot-id", type: "string", value: "T", description: "resolve item references in that snapshot (default: the latest)" },
    ],
    params(args) {
      let command = args.positionals[0]!;
      if (!command.trimStart().startsWith("<context")) {
        const app = args.flags.get("--app") as string | undefined;
        const view = args.flags.get("--view") as string | undefined;
        command = `<context${app ? ` app_id="${xmlAttr(app)}"` : ""}${view ? ` view_id="${xmlAttr(view)}"` : ""}>${command}</context>`;
      } else if (args.flags.has("--app") || args.flags.has("--view")) {
        throw new TuiwrightError("usage", "--app/--view go with a bare DSL command; a <context> names its own app and view", { hint: "run `tuiwright help desktop exec`" });
      }
      return {
        command,
        ...(args.flags.has("--owner") ? { owner: args.flags.get("--owner") } : {}),
        ...(args.flags.has("--snapshot-id") ? { snapshot_id: args.flags.get("--snapshot-id") } : {}),
      };
    },
  },
  {
    name: "desktop install",
    summary: "install an HTML5 app folder (with aoapp.json) on a desktop",
    usage: "desktop install APP_DIR [--open] [--desktop ID]",
    method: "desktop.install",
    positionals: [1, 1],
    flags: [DESKTOP, { name: "--open", type: "bool", description: "open it at once" }],
    params: (args, client) => ({ dir: resolvePath(client.cwd, args.positionals[0]!), open: args.flags.get("--open") === true }),
  },
  {
    name: "desktop save",
    summary: "write the desktop's state (AOTUI DesktopState, with the apps' own data) to a new JSON file",
    usage: "desktop save FILE [--desktop ID]",
    method: "desktop.save",
    positionals: [1, 1],
    flags: [DESKTOP],
    params: (args, client) => ({ file: resolvePath(client.cwd, args.positionals[0]!) }),
  },
  {
    name: "desktop restore",
    summary: "recreate a desktop from a file written by `desktop save`",
    usage: "desktop restore FILE",
    method: "desktop.restore",
    autoStart: true,
    positionals: [1, 1],
    flags: [],
    params(args, client) {
      const { path, text } = readWordFile(client.cwd, args.positionals[0]!);
      try {
        return { state: JSON.parse(text) };
      } catch (error) {
        throw new TuiwrightError("bad-data", `${path} is not JSON: ${(error as Error).message}`);
      }
    },
  },
];
