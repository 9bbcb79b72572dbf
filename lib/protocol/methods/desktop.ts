// The AOTUI desktop methods (lib/desktop/), spread into the method table. A desktop is named
// by its id; when omitted, the only desktop there is. Signals arrive as `desktop.signal`
// notifications on the connection that called desktop.subscribe.
import * as v from "valibot";
import { doc } from "../schemas.ts";

const DesktopId = doc(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, "a desktop id is 1-64 letters, digits, '_', '.' or '-'")), "desktop id; default: the only desktop");
const which = { desktop: v.optional(DesktopId) };
const Owner = doc(v.pipe(v.string(), v.minLength(1), v.maxLength(128)), "the writer's owner id (§5.5: one writer at a time)");
const AppInfo = v.object({ alias: v.string(), appId: v.string(), name: v.string(), system: v.boolean(), state: v.string() });
const DesktopState = doc(v.looseObject({
  id: doc(v.string(), "the desktop's id"),
  createdAt: doc(v.number(), "when it was created (ms since the epoch)"),
  apps: doc(v.array(v.unknown()), "the open applications, each with its own serialised state"),
  installed: doc(v.array(v.unknown()), "the installed applications"),
}), "a DesktopState from desktop.save");

export const DESKTOP_METHODS = {
  "desktop.create": {
    tool: "desktop",
    title: "Create an AOTUI desktop: system apps open, the given HTML5 app folders installed",
    cli: {
      verb: "desktop create", summary: "create an AOTUI agent desktop (ChatWithUser and ThoughtRecorder open) with these HTML5 app folders installed",
      words: ["apps..."], flags: { open: "--open", operationTimeoutMs: "--op-timeout" }, files: { apps: "path" }, autoStart: true,
    },
    readOnly: false,
    params: v.strictObject({
      apps: v.optional(doc(v.array(v.pipe(v.string(), v.regex(/^\//, "an app folder must be an absolute path"))), "absolute paths of app folders (each with aoapp.json)"), []),
      open: v.optional(doc(v.boolean(), "open the installed apps at once"), false),
      systemApps: v.optional(doc(v.array(v.string()), "system apps to install; default system.chat and system.thoughts")),
      operationTimeoutMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000)), "an operation fails with E_TIMEOUT after this many ms; default 10000")),
    }),
    result: v.object({ desktop: v.string(), apps: v.array(AppInfo) }),
  },
  "desktop.destroy": {
    tool: "desktop",
    title: "Destroy a desktop and stop its apps",
    cli: { verb: "desktop destroy", summary: "destroy a desktop and stop its apps", flags: { desktop: "--desktop|-d" } },
    readOnly: false,
    destructive: true,
    params: v.strictObject({ ...which }),
    result: v.object({ desktop: v.string(), destroyed: v.literal(true) }),
  },
  "desktop.list": {
    tool: "desktop",
    title: "The desktops of this daemon",
    cli: { verb: "desktop list", summary: "list the desktops and their applications" },
    readOnly: true,
    params: v.strictObject({}),
    result: v.object({ desktops: v.array(v.object({ desktop: v.string(), createdAt: v.number(), owner: v.nullable(v.string()), apps: v.array(AppInfo) })) }),
  },
  "desktop.snapshot": {
    tool: "desktop",
    title: "The desktop as Markdown (AOTUI §4.1) and the snapshot id its item references resolve against",
    cli: { verb: "desktop snapshot", summary: "print the desktop as the agent reads it (AOTUI Markdown)", flags: { desktop: "--desktop|-d" } },
    readOnly: true,
    params: v.strictObject({ ...which, peek: v.optional(doc(v.boolean(), "look without registering a snapshot (observers such as the inspector: the agent's snapshot ids stay valid)"), false) }),
    result: v.object({ desktop: v.string(), markup: v.string(), snapshot_id: v.string() }),
  },
  "desktop.exec": {
    tool: "desktop",
    title: "Run one command: <context app_id view_id>DSL</context> (AOTUI §5)",
    cli: {
      verb: "desktop exec",
      summary: "run one command on the desktop: <context …>DSL</context>, or bare DSL with --app/--view",
      usage: "desktop exec COMMAND [--app APP] [--view VIEW] [--desktop ID] [--owner ID] [--snapshot-id T]",
      arity: [1, 1], // COMMAND: wrapped in the <context> --app/--view name by lib/cli/verb-hooks.ts
      flags: {
        desktop: { names: "--desktop|-d", value: "ID", description: "the desktop (default: the only one)" },
        "--app": { type: "string", value: "APP", description: "the app (app_N or its id) for a bare DSL command" },
        "--view": { type: "string", value: "VIEW", description: "the view (view_NNN) for a bare DSL command" },
        owner: { names: "--owner", value: "ID", description: "your owner id, when the desktop's input is held" },
        snapshot_id: { names: "--snapshot-id", value: "T", description: "resolve item references in that snapshot (default: the latest)" },
      },
    },
    readOnly: false,
    params: v.strictObject({
      ...which,
      command: doc(v.pipe(v.string(), v.minLength(1)), "<context app_id=\"app_N\" view_id=\"view_NNN\">execute OP --arg value</context>, or a system command in <context>"),
      snapshot_id: v.optional(doc(v.string(), "the snapshot the command's item references mean; default the desktop's latest")),
      owner: v.optional(Owner),
    }),
    result: v.looseObject({ desktop: v.string(), status: v.literal("ok"), command: v.string() }),
  },
  "desktop.acquire": {
    tool: "desktop",
    title: "Take the desktop's input (single writer); released when this connection closes",
    readOnly: false,
    params: v.strictObject({ ...which, owner: Owner }),
    result: v.object({ desktop: v.string(), owner: v.string() }),
  },
  "desktop.release": {
    tool: "desktop",
    title: "Give the desktop's input back",
    readOnly: false,
    params: v.strictObject({ ...which, owner: Owner }),
    result: v.object({ desktop: v.string(), released: v.literal(true) }),
  },
  "desktop.say": {
    tool: "desktop",
    title: "Hand the ChatWithUser app a message from the user (the product layer's call)",
    cli: { verb: "desktop say", summary: "give the desktop's ChatWithUser app a message from the user", words: ["text"], flags: { desktop: "--desktop|-d" } },
    readOnly: false,
    params: v.strictObject({ ...which, text: doc(v.pipe(v.string(), v.minLength(1)), "what the user says to the agent (ChatWithUser shows it)") }),
    result: v.object({ desktop: v.string() }),
  },
  "desktop.install": {
    tool: "desktop",
    title: "Install (and optionally open) an HTML5 app folder on a desktop",
    cli: { verb: "desktop install", summary: "install an HTML5 app folder (with aoapp.json) on a desktop", words: ["dir"], flags: { desktop: "--desktop|-d", open: "--open" }, files: { dir: "path" } },
    readOnly: false,
    params: v.strictObject({ ...which, dir: doc(v.pipe(v.string(), v.regex(/^\//, "an app folder must be an absolute path")), "the app's folder (with aoapp.json), absolute"), open: v.optional(doc(v.boolean(), "open it at once"), false) }),
    result: v.object({ desktop: v.string(), app: v.string() }),
  },
  "desktop.openSession": {
    tool: "desktop",
    title: "Open a terminal session as an application: its manifest's regions as views, items as lists, [[operations]] as operations",
    cli: { verb: "desktop open-session", summary: "open a terminal session as an application of the desktop (views from its manifest, [[operations]] as operations)", words: ["session"], flags: { desktop: "--desktop|-d" } },
    readOnly: false,
    params: v.strictObject({ ...which, session: doc(v.pipe(v.string(), v.minLength(1)), "the terminal session to open as an application") }),
    result: v.object({ desktop: v.string(), app: v.string() }),
  },
  "desktop.save": {
    tool: "desktop",
    title: "Serialize a desktop (AOTUI §9.3 DesktopState); the daemon keeps nothing (with file: writes it there, new file only)",
    cli: { verb: "desktop save", summary: "write the desktop's state (AOTUI DesktopState, with the apps' own data) to a new JSON file", words: ["file"], flags: { desktop: "--desktop|-d" }, files: { file: "path" } },
    readOnly: true,
    params: v.strictObject({ ...which, file: v.optional(doc(v.pipe(v.string(), v.regex(/^\//, "the file must be an absolute path")), "write the state as JSON to this new file")) }),
    result: v.object({ desktop: v.string(), state: v.unknown(), file: v.optional(v.string()) }),
  },
  "desktop.restore": {
    tool: "desktop",
    title: "Recreate a desktop from a DesktopState",
    cli: { verb: "desktop restore", summary: "recreate a desktop from a file written by `desktop save` (--dry-run: say which app folders it would run, run nothing)", words: ["state"], flags: { dryRun: "--dry-run" }, files: { state: "json" }, autoStart: true },
    readOnly: false,
    params: v.strictObject({
      state: doc(DesktopState, "a DesktopState from desktop.save (AOTUI §9)"),
      dryRun: v.optional(doc(v.boolean(), "check the state and every app folder it names as a restore would, and answer which folders it would run, without creating the desktop or running any code"), false),
    }),
    result: v.object({
      desktop: v.string(),
      dryRun: v.optional(doc(v.literal(true), "nothing was created or run: `folders` is what a restore would run")),
      apps: v.array(AppInfo),
      folders: doc(v.array(v.string()), "the app folders whose code the restored desktop runs (each yours or root's and writable by nobody else, or the restore is refused)"),
    }),
  },
  "desktop.subscribe": {
    tool: false,
    title: "Receive the desktop's signals as desktop.signal notifications {subscription, desktopId, timestamp, reason}",
    readOnly: true,
    params: v.strictObject({ ...which }),
    result: v.object({ desktop: v.string(), subscription: v.string() }),
  },
} as const;
