// Which MCP tools a client sees. A model pays for every tool description in every turn, so the
// default is the set a terminal agent needs (core + shell, without output schemas); the rest —
// browsers, agent desktops, the daemon's own administration (daemon_stop kills every session) and
// the agent-interactive-pty document's names for the same calls — is opt-in:
// `tuiwright mcp --tools core,shell,browser` (or $TUIWRIGHT_MCP_TOOLS, `serve --mcp-tools`).
import { TuiwrightError } from "./errors.ts";

export const PROFILES = {
  /** Run a program, read its screen, act on it, wait for it. */
  core: ["spawn", "list", "kill", "snapshot", "type", "press", "click", "scroll", "wait", "resize", "signal", "get", "mark"],
  /** Shell sessions: command blocks with exit codes and an output cursor. */
  shell: ["exec", "send", "end", "status", "blocks", "block", "reset"],
  /** Carbonyl browser sessions. */
  browser: ["navigate", "back", "forward", "reload", "mouse"],
  /** AI coding CLIs (Claude Code, Codex, Pi, opencode, Gemini): a prompt's whole turn in one call. */
  ai: ["turn"],
  /** AOTUI agent desktops. */
  desktop: ["desktop_create", "desktop_destroy", "desktop_list", "desktop_snapshot", "desktop_exec", "desktop_acquire", "desktop_release", "desktop_say", "desktop_install", "desktop_open_session", "desktop_save", "desktop_restore"],
  /** The daemon and its manifests, write leases (daemon_stop ends every session in the namespace). */
  admin: ["ping", "capabilities", "daemon_status", "daemon_stop", "adapter_list", "adapter_check", "lease_acquire", "lease_release"],
  /** The agent-interactive-pty document's tool names (the shell profile does the same in core names). */
  "interactive-pty": ["exec_block", "exec_interactive", "ctrl_c", "ctrl_d", "enter", "wait_for", "end_session"],
} as const satisfies Record<string, readonly string[]>;

export type ProfileName = keyof typeof PROFILES;

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
  for (const [name, tools] of Object.entries(PROFILES) as [ProfileName, readonly string[]][]) if (tools.includes(tool)) return name;
  return null;
}

/** `core,shell,browser` or `all` (every profile); an unknown name is a usage error listing them.
 * `outputSchemas`: every tool keeps its output schema (a client that checks result shapes). */
export function selectTools(spec: string | undefined, from = "--tools", outputSchemas = false): ToolSelection {
  const names = spec === undefined || spec.trim() === "" ? DEFAULT_PROFILES : spec.split(",").map((word) => word.trim()).filter(Boolean);
  const chosen: ProfileName[] = [];
  for (const name of names) {
    if (name === "all") { chosen.push(...(Object.keys(PROFILES) as ProfileName[])); continue; }
    if (!Object.hasOwn(PROFILES, name)) {
      throw new TuiwrightError("usage", `${from}: unknown tool profile ${JSON.stringify(name)}; the profiles are ${Object.keys(PROFILES).join(", ")} and all`, {
        hint: `e.g. ${from} core,shell,browser (the default is ${DEFAULT_PROFILES.join(",")})`,
      });
    }
    chosen.push(name as ProfileName);
  }
  const unique = [...new Set(chosen)];
  const tools = new Set<string>(unique.flatMap((name) => PROFILES[name]));
  return { names: tools, outputSchemas: (tool) => outputSchemas || WITH_OUTPUT_SCHEMAS.has(profileOf(tool)!), profiles: unique };
}
