// The `tuiwright desktop …` verbs that are more than a method's words and flags (the rest are
// `cli` entries in lib/protocol/methods/desktop.ts): exec, which builds its command, and
// new-app and inspect, which run in entries/desktop.ts. The CLI is the bridge of §5.3 for its
// caller: exec resolves item references against the desktop's latest snapshot unless
// --snapshot-id names one.
import { TuiwrightError } from "../protocol/errors.ts";
import type { FlagSpec } from "./flags.ts";
import { paramFlag } from "./param-flags.ts";
import type { Verb } from "./verbs.ts";

/** Every desktop.* method but create takes `desktop`; the flag sets it as given. */
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

/** `desktop exec` builds its command: bare DSL is wrapped in the <context> --app/--view name. */
export const DESKTOP_VERBS: Verb[] = [
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
      paramFlag("desktop.exec", "owner", "--owner", { value: "ID", description: "your owner id, when the desktop's input is held" }),
      paramFlag("desktop.exec", "snapshot_id", "--snapshot-id", { value: "T", description: "resolve item references in that snapshot (default: the latest)" }),
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
      return { command };
    },
  },
];
