// Which MCP tools a client sees. A model pays for every tool description in every turn, so the
// default is the set a terminal agent needs (core + shell, without output schemas); the rest —
// browsers, agent desktops, the daemon's own administration (daemon_stop kills every session) and
// the agent-interactive-pty document's names for the same calls — is opt-in:
// `tuiwright mcp --tools core,shell,browser` (or $TUIWRIGHT_MCP_TOOLS, `serve --mcp-tools`).
import { TuiwrightError } from "./errors.ts";
import { TOOL_PROFILES } from "./generated/method-facts.ts";

/** What each profile is for. Which tools it holds is the method table's word (`tool` in each
 * method's definition, generated into TOOL_PROFILES): a new method names its profile where it is
 * defined. */
export const PROFILE_PURPOSES = {
  core: "Run a program, read its screen, act on it, wait for it.",
  shell: "Shell sessions: command blocks with exit codes and an output cursor.",
  browser: "Carbonyl browser sessions.",
  ai: "AI coding CLIs (Claude Code, Codex, Pi, opencode, Gemini): a prompt's whole turn in one call.",
  desktop: "AOTUI agent desktops.",
  admin: "The daemon and its manifests, write leases (daemon_stop ends every session in the namespace).",
  "interactive-pty": "The agent-interactive-pty document's tool names (the shell profile does the same in core names).",
} as const;

export type ProfileName = keyof typeof PROFILE_PURPOSES;

let profileTools: Readonly<Record<ProfileName, readonly string[]>> | null = null;
/** Each profile's tools, in the method table's order. Made on first call, not when the thin CLI
 * loads this file for `mcp --tools` (~0.2 ms of every CLI start). */
export const profiles = (): Readonly<Record<ProfileName, readonly string[]>> =>
  (profileTools ??= Object.fromEntries(
    (Object.keys(PROFILE_PURPOSES) as ProfileName[]).map((profile) => [profile, TOOL_PROFILES.filter(([, of]) => of === profile).map(([tool]) => tool)]),
  ) as unknown as Record<ProfileName, readonly string[]>);


/** Tool names from before names were snake_case, still accepted by tools/call (never listed) so
 * a client written against them keeps working. tests/unit/mcp/profiles.test.ts derives this
 * table from the method table and fails when it is stale. */
export const FORMER_TOOL_NAMES: Readonly<Record<string, string>> = { desktop_openSession: "desktop_open_session" };

/** The current name of a tool called by `name`, which may be a former one. */
export function currentToolName(name: string): string {
  return Object.hasOwn(FORMER_TOOL_NAMES, name) ? FORMER_TOOL_NAMES[name]! : name;
}

export const DEFAULT_PROFILES: ProfileName[] = ["core", "shell"];

/** Profiles whose tools keep their output schemas: the document's client checks its result shapes. */
const WITH_OUTPUT_SCHEMAS = new Set<ProfileName>(["interactive-pty"]);

export type ToolSelection = { names: ReadonlySet<string>; outputSchemas: (tool: string) => boolean; profiles: string[] };

/** The profile a tool belongs to, or null (a tool the table here forgot: a test fails on it). */
export function profileOf(tool: string): ProfileName | null {
  for (const [name, tools] of Object.entries(profiles()) as [ProfileName, readonly string[]][]) if (tools.includes(tool)) return name;
  return null;
}

/** `core,shell,browser` or `all` (every profile); an unknown name is a usage error listing them.
 * `outputSchemas`: every tool keeps its output schema (a client that checks result shapes). */
export function selectTools(spec: string | undefined, from = "--tools", outputSchemas = false): ToolSelection {
  const names = spec === undefined || spec.trim() === "" ? DEFAULT_PROFILES : spec.split(",").map((word) => word.trim()).filter(Boolean);
  const chosen: ProfileName[] = [];
  for (const name of names) {
    if (name === "all") { chosen.push(...(Object.keys(profiles()) as ProfileName[])); continue; }
    if (!Object.hasOwn(profiles(), name)) {
      throw new TuiwrightError("usage", `${from}: unknown tool profile ${JSON.stringify(name)}; the profiles are ${Object.keys(profiles()).join(", ")} and all`, {
        hint: `e.g. ${from} core,shell,browser (the default is ${DEFAULT_PROFILES.join(",")})`,
      });
    }
    chosen.push(name as ProfileName);
  }
  const unique = [...new Set(chosen)];
  const tools = new Set<string>(unique.flatMap((name) => profiles()[name]));
  return { names: tools, outputSchemas: (tool) => outputSchemas || WITH_OUTPUT_SCHEMAS.has(profileOf(tool)!), profiles: unique };
}
