// Every compat table, and which alias (if any) a call means. A name only a document has is
// always its alias; a name the core shares is the document's when called as PREFIX.NAME, or
// when its params carry a field the document's shape has and the core's lacks
// (conversation_id, timeout_ms, include_meta, …). Anything else is a core call.
import type * as v from "valibot";
import { isMethodName, METHODS } from "../methods.ts";
import type { CompatAlias, CompatTable } from "./alias.ts";
import { AWI_TTY_TABLE } from "./awi-tty.ts";
import { INTERACTIVE_PTY_TABLE } from "./interactive-pty.ts";

export type { CompatAlias, CompatTable, CoreCall } from "./alias.ts";
export const COMPAT_TABLES: CompatTable[] = [INTERACTIVE_PTY_TABLE, AWI_TTY_TABLE];

const fieldsOf = (schema: v.GenericSchema): string[] => Object.keys((schema as unknown as { entries?: object }).entries ?? {});

/** For each alias whose name the core shares: the fields only the document's shape has. */
const DOCUMENT_ONLY_FIELDS = new Map<CompatAlias, ReadonlySet<string>>(COMPAT_TABLES.flatMap((table) =>
  Object.entries(table.aliases).filter(([name]) => isMethodName(name)).map(([name, alias]) => {
    const core = new Set(fieldsOf(METHODS[name as keyof typeof METHODS].params));
    return [alias, new Set(fieldsOf(alias.params).filter((field) => !core.has(field)))] as const;
  })));

export function compatAlias(method: string, params: unknown): CompatAlias | null {
  for (const table of COMPAT_TABLES) {
    if (method.startsWith(table.prefix)) {
      const name = method.slice(table.prefix.length);
      if (Object.hasOwn(table.aliases, name)) return table.aliases[name]!;
    }
  }
  for (const table of COMPAT_TABLES) {
    if (!Object.hasOwn(table.aliases, method)) continue;
    const alias = table.aliases[method]!;
    const documentOnly = DOCUMENT_ONLY_FIELDS.get(alias);
    if (documentOnly === undefined) return alias; // a name only the document has
    const given = typeof params === "object" && params !== null ? Object.keys(params) : [];
    if (given.some((field) => documentOnly.has(field))) return alias;
  }
  return null;
}

/** The name `capabilities` lists an alias under: PREFIX.NAME when the core shares NAME. */
export const listedName = (table: CompatTable, name: string) => (isMethodName(name) ? `${table.prefix}${name}` : name);
