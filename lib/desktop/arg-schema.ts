// An operation's `args` attribute (§3.3): a JSON object of name → type. Types: string, number,
// integer, boolean, object, any, or the item type of a list (e.g. "todo"), which takes an item
// reference such as todo_list[0]. A trailing "?" makes an argument optional.
import type { ArgSpec } from "./view-model.ts";

export const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "object", "any"]);

/** Parses the attribute; a malformed one is reported (the operation is shown, unusable). */
export function parseArgsSchema(raw: string | null): { args: ArgSpec[]; error?: string } {
  if (raw === null || raw.trim() === "") return { args: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return { args: [], error: `args is not JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { args: [], error: "args must be a JSON object of name → type" };
  const args: ArgSpec[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    const type = typeof value === "string" ? value : typeof value === "object" && value && typeof (value as any).type === "string" ? (value as any).type : null;
    if (type === null) return { args: [], error: `args.${name} must be a type name such as "string"` };
    const optional = type.endsWith("?") || (typeof value === "object" && (value as any).optional === true);
    args.push({ name, type: type.replace(/\?$/, ""), optional });
  }
  return { args };
}

export function isItemType(type: string): boolean {
  return !SCALAR_TYPES.has(type);
}
