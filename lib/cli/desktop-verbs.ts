// `tuiwright desktop exec`, the one desktop verb that is more than its method's words and flags
// (the others are `cli` entries in lib/protocol/methods/desktop.ts; new-app and inspect run in
// entries/desktop.ts). The CLI is the bridge of §5.3 for its caller: exec resolves item
// references against the desktop's latest snapshot unless --snapshot-id names one.
import { TuiwrightError } from "../protocol/errors.ts";
import { DESKTOP_FLAG } from "./command-help.ts";
import { paramFlag } from "./param-flags.ts";
import type { Verb } from "./verbs.ts";

function xmlAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

/** `desktop exec` builds its command: bare DSL is wrapped in the <context> --app/--view name. */
export const DESKTOP_VERBS: Verb[] = [
  {
    name: "desktop exec",
    summary: "run one command on the desktop: <context …>DSL</context>, or bare DSL with --app/--view",
    usage: "desktop exec COMMAND [--app APP] [--view VIEW] [--desktop ID] [--owner ID] [--snapshot-id T]",
    method: "desktop.exec",
    positionals: [1, 1],
    flags: [
      DESKTOP_FLAG,
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
