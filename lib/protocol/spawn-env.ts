// The environment a new program gets, built the same way by every edge (CLI, MCP, library):
// the caller's own, with TERM set for our terminal and COLUMNS/LINES dropped (a size inherited
// from the caller's terminal would contradict the PTY's), and the caller's overrides merged
// over it — or, with `replace`, the overrides alone (plus TERM).
export function spawnEnvironment(
  caller: Record<string, string | undefined>,
  overrides: Record<string, string> = {},
  replace = false,
): Record<string, string> {
  const env: Record<string, string> = {};
  if (!replace) for (const [key, value] of Object.entries(caller)) if (value !== undefined) env[key] = value;
  delete env.COLUMNS;
  delete env.LINES;
  env.TERM = "xterm-256color";
  return Object.assign(env, overrides);
}
