// CLI-style arguments → the JSON object an operation receives (§5.3 mapping rule), by the
// operation's args schema: unknown names refused, required ones checked, types converted,
// item references (todo_list[0]) resolved to the data-value captured in the snapshot.
import type { ParsedArg } from "./dsl.ts";
import { desktopError } from "./aotui-codes.ts";
import { isItemType } from "./arg-schema.ts";
import type { ArgSpec, Item } from "./view-model.ts";

const REFERENCE = /^([A-Za-z_][\w-]*)\[(\d+)\]$/;

export type ItemResolver = (listId: string, index: number) => { item: Item; type: string };

/** The lists of the view the command acts in that hold items of a type (for hints). */
export type ListsOfType = (type: string) => string[];

function invalid(message: string): Error {
  return desktopError("invalid-command", message);
}

export function convertArgs(operation: string, specs: ArgSpec[], given: ParsedArg[] | Record<string, unknown>, resolve: ItemResolver, listsOfType: ListsOfType = () => []): { args: Record<string, unknown>; stableKeys: string[] } {
  const named: ParsedArg[] = Array.isArray(given) ? given : Object.entries(given).map(([name, value]) => ({ name, short: false, value: value as any }));
  const args: Record<string, unknown> = {};
  const stableKeys: string[] = [];
  const known = specs.map((s) => s.name).join(", ") || "none";
  for (const arg of named) {
    let spec: ArgSpec | undefined;
    if (arg.short) {
      const candidates = specs.filter((s) => s.name.startsWith(arg.name));
      if (candidates.length !== 1) throw invalid(`-${arg.name} does not name exactly one argument of ${operation} (arguments: ${known})`);
      spec = candidates[0];
    } else spec = specs.find((s) => s.name === arg.name);
    if (!spec) throw invalid(`${operation} has no argument ${JSON.stringify(arg.name)} (arguments: ${known})`);
    if (spec.name in args) throw invalid(`argument ${spec.name} given twice`);
    args[spec.name] = convertOne(operation, spec, arg.value, resolve, stableKeys, listsOfType);
  }
  for (const spec of specs) if (!spec.optional && !(spec.name in args)) throw invalid(`${operation} needs --${spec.name} (${spec.type})`);
  return { args, stableKeys };
}

function convertOne(operation: string, spec: ArgSpec, value: unknown, resolve: ItemResolver, stableKeys: string[], listsOfType: ListsOfType): unknown {
  const where = `${operation} --${spec.name}`;
  if (isItemType(spec.type)) {
    const lists = listsOfType(spec.type);
    const example = lists.length > 0 ? `an item of ${lists.join(" or ")} such as ${lists[0]}[0]` : `a reference to a ${spec.type} item such as list_id[0]`;
    const match = typeof value === "string" ? REFERENCE.exec(value) : null;
    if (!match) throw invalid(`${where} takes ${example}, got ${JSON.stringify(value)}`);
    const { item, type } = resolve(match[1]!, Number(match[2]));
    if (type !== spec.type) throw invalid(`${where} takes ${example}, but ${value} is a ${type}`);
    if (item.key !== null) stableKeys.push(item.key);
    return item.value;
  }
  switch (spec.type) {
    case "string":
      if (typeof value !== "string") throw invalid(`${where} needs a value (string)`);
      return value;
    case "number":
    case "integer": {
      const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
      if (!Number.isFinite(number) || (spec.type === "integer" && !Number.isInteger(number))) throw invalid(`${where} must be ${spec.type === "integer" ? "an integer" : "a number"}, got ${JSON.stringify(value)}`);
      return number;
    }
    case "boolean":
      if (value === true || value === "true") return true;
      if (value === false || value === "false") return false;
      throw invalid(`${where} is a flag (true/false), got ${JSON.stringify(value)}`);
    case "object":
      if (typeof value === "object" && value !== null) return value;
      if (typeof value !== "string") throw invalid(`${where} needs a JSON object`);
      try {
        return JSON.parse(value);
      } catch {
        throw invalid(`${where} is not JSON: ${JSON.stringify(value)}`);
      }
    default:
      return value;
  }
}
