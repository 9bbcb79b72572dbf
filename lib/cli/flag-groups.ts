// The flag groups several verbs share: the wait conditions (type, press, click and wait take
// them) and the aim at a target. A verb's row names a group ("@wait", "@aim"); lib/cli/table-verbs.ts
// puts its flags there and, for "@wait", turns them into the method's `wait` param.
import { type FlagSpec, type ParsedArgs, usage } from "./flags.ts";
import { docFlag, paramFlag } from "./param-flags.ts";

let waitFlagList: FlagSpec[] | null = null;
/** Wait conditions, documented by the wait method's params (waitSpec turns them into one). Made
 * when a verb that takes them is made, not at every CLI start. */
export const waitFlags = (): FlagSpec[] => (waitFlagList ??= [
  docFlag("wait", "text", "--text", { aliases: ["--wait-text"], value: "STR" }),
  docFlag("wait", "regex", "--regex", { aliases: ["--wait-regex"], value: "RE" }),
  docFlag("wait", "gone", "--gone", { aliases: ["--wait-gone"] }),
  docFlag("wait", "inScrollback", "--in-scrollback"),
  docFlag("wait", "settledMs", "--settled", { aliases: ["--idle"] }),
  docFlag("wait", "changedSince", "--changed-since", { value: "REV" }),
  docFlag("wait", "title", "--title", { aliases: ["--wait-title"], value: "STR|/RE/" }),
  docFlag("wait", "cursor", "--cursor", { aliases: ["--wait-cursor"], value: "ROW,COL", description: "the cursor is at ROW,COL (0-based)" }),
  docFlag("wait", "altScreen", "--alt-screen", { type: "string", value: "on|off", description: "the alternate screen is on or off" }),
  docFlag("wait", "exit", "--exit", { aliases: ["--wait-exit"] }),
  docFlag("wait", "ref", "--ref", { aliases: ["--wait-ref"], value: "SEL" }),
  docFlag("wait", "refValue", "--ref-value", { value: "V|/RE/" }),
  docFlag("wait", "output", "--output", { aliases: ["--wait-output"], value: "STR|/RE/" }),
  docFlag("wait", "turn", "--turn", { aliases: ["--wait-turn"], type: "string", value: "ID|last" }),
  docFlag("wait", "turnState", "--turn-state", { value: "STATE[,STATE]" }),
  docFlag("wait", "fromCursor", "--from-cursor"),
  docFlag("wait", "maxBytes", "--max-bytes"),
  { name: "--all", type: "bool", description: "wait until every condition holds (default: any)" },
  { name: "--any", type: "bool", description: "wait until one condition holds (the default)" },
  docFlag("wait", "timeoutMs", "--timeout"),
]);

const WAIT_KEYS = new Set(["--text", "--regex", "--settled", "--changed-since", "--title", "--cursor", "--alt-screen", "--exit", "--ref", "--output", "--turn"]);

/** Input aimed at a node (the method's `to` and `revision`). */
export const aimFlags = (method: string): FlagSpec[] => [
  paramFlag(method, "to", "--to", { value: "TARGET", description: "aim at this ref (@e4, @vim.mode) or selector: clicked first with mouse input, else it must be an input or focused" }),
  paramFlag(method, "revision", "--rev", { value: "REV" }),
];

/** The wait conditions the flags give, or undefined when none is given. */
export function waitSpec(args: ParsedArgs, verb: string): Record<string, unknown> | undefined {
  const f = args.flags;
  if (![...f.keys()].some((key) => WAIT_KEYS.has(key))) {
    if (f.has("--timeout") || f.has("--all") || f.has("--gone")) throw usage(`${verb}: --timeout, --all and --gone need a condition such as --text`, verb);
    return undefined;
  }
  if (f.has("--all") && f.has("--any")) throw usage("--all and --any exclude each other", verb);
  const spec: Record<string, unknown> = {};
  if (f.has("--text")) spec.text = f.get("--text");
  if (f.has("--regex")) spec.regex = f.get("--regex");
  if (f.has("--gone")) spec.gone = true;
  if (f.has("--in-scrollback")) spec.inScrollback = true;
  if (f.has("--settled")) spec.settledMs = f.get("--settled");
  if (f.has("--changed-since")) spec.changedSince = f.get("--changed-since");
  if (f.has("--title")) spec.title = f.get("--title");
  if (f.has("--cursor")) {
    const match = /^(\d+),(\d+)$/.exec(String(f.get("--cursor")));
    if (!match) throw usage(`--cursor needs ROW,COL, got ${JSON.stringify(f.get("--cursor"))}`, verb);
    spec.cursor = { row: Number(match[1]), col: Number(match[2]) };
  }
  if (f.has("--alt-screen")) {
    const value = f.get("--alt-screen");
    if (value !== "on" && value !== "off") throw usage(`--alt-screen needs on or off, got ${JSON.stringify(value)}`, verb);
    spec.altScreen = value === "on";
  }
  if (f.has("--exit")) spec.exit = true;
  if (f.has("--ref")) spec.ref = f.get("--ref");
  if (f.has("--ref-value")) {
    if (!f.has("--ref")) throw usage("--ref-value needs --ref SEL", verb);
    spec.refValue = f.get("--ref-value");
  }
  if (f.has("--output")) spec.output = f.get("--output");
  if (f.has("--turn")) {
    const turn = String(f.get("--turn"));
    if (turn !== "last" && !/^[1-9]\d*$/.test(turn)) throw usage(`--turn needs a turn id (1, 2, …) or last, got ${JSON.stringify(turn)}`, verb);
    spec.turn = turn === "last" ? turn : Number(turn);
  }
  if (f.has("--turn-state")) {
    if (!f.has("--turn")) throw usage("--turn-state needs --turn ID|last", verb);
    spec.turnState = (f.get("--turn-state") as string[]).flatMap((word) => word.split(",")).map((word) => word.trim()).filter(Boolean);
  }
  if (f.has("--from-cursor")) spec.fromCursor = f.get("--from-cursor");
  if (f.has("--max-bytes")) spec.maxBytes = f.get("--max-bytes");
  if ((f.has("--from-cursor") || f.has("--max-bytes")) && !f.has("--output")) throw usage("--from-cursor and --max-bytes go with --output", verb);
  if (f.has("--all")) spec.mode = "all";
  if (f.has("--timeout")) spec.timeoutMs = f.get("--timeout");
  return spec;
}
