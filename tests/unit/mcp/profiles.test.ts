// The MCP tool profiles: every tool belongs to one, the default set is small, and a bad
// selection is a usage error naming the profiles.
import { expect, test } from "bun:test";
import { currentToolName, DEFAULT_PROFILES, FORMER_TOOL_NAMES, profileOf, profiles, selectTools } from "../../../lib/protocol/mcp-profiles.ts";
import { METHODS } from "../../../lib/protocol/methods.ts";
import { formerToolName, NOT_TOOLS, toolName, tools } from "../../../lib/mcp/tools.ts";
import { toolsFor } from "../../../lib/mcp/tool-list.ts";
import { thrown } from "../../helpers/errors.ts";

test("every tool the method table makes belongs to exactly one profile, and every profile names only real tools", () => {
  const names = tools().tools.map((tool) => tool.name);
  expect(names.filter((name) => profileOf(name) === null)).toEqual([]);
  const listed = Object.values(profiles()).flat();
  expect(listed.filter((name) => !names.includes(name))).toEqual([]);
  expect(new Set(listed).size).toBe(listed.length);
});

test("the default profiles fit a model's budget (under 8k tokens at 4 chars each) and leave out daemon-wide and document tools", () => {
  expect(DEFAULT_PROFILES).toEqual(["core", "shell"]);
  const list = toolsFor(selectTools(undefined));
  expect(JSON.stringify(list).length / 4).toBeLessThan(8000);
  const names = list.map((tool) => tool.name);
  for (const optIn of ["daemon_stop", "debug_crash_worker", "exec_block", "desktop_exec"]) expect(names).not.toContain(optIn);
  expect(list.every((tool) => tool.outputSchema === undefined)).toBe(true);
  const everything = toolsFor(selectTools("all", "--tools", true));
  expect(everything.length).toBe(tools().tools.length);
  expect(everything.every((tool) => tool.outputSchema !== undefined)).toBe(true);
});

test("a selection: names, all, duplicates once; an unknown profile is a usage error listing them", () => {
  expect(selectTools("shell, browser").profiles).toEqual(["shell", "browser"]);
  expect(selectTools("core,core").profiles).toEqual(["core"]);
  expect(selectTools("all").names.has("daemon_stop")).toBe(true);
  expect(selectTools("interactive-pty").outputSchemas("exec_block")).toBe(true);
  const error = thrown(() => selectTools("core,everything", "--tools"));
  expect(error.errorName).toBe("usage");
  expect(error.message).toBe('--tools: unknown tool profile "everything"; the profiles are core, shell, browser, ai, desktop, admin, interactive-pty and all');
});

test("tool names are snake_case; each former dotted-only name is accepted as its new one, and the table of them is current", () => {
  expect(tools().tools.map((tool) => tool.name).filter((name) => !/^[a-z][a-z0-9_]*$/.test(name))).toEqual([]);
  expect(toolName("desktop.openSession")).toBe("desktop_open_session");
  expect(toolName("lease.acquire")).toBe("lease_acquire");
  const renamed = Object.keys(METHODS).filter((method) => !NOT_TOOLS.has(method as never) && formerToolName(method) !== toolName(method));
  expect(FORMER_TOOL_NAMES).toEqual(Object.fromEntries(renamed.map((method) => [formerToolName(method), toolName(method)])));
  expect(currentToolName("desktop_openSession")).toBe("desktop_open_session");
  expect(currentToolName("spawn")).toBe("spawn");
});
