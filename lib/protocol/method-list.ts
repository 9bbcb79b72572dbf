// The method table as a list, the way `capabilities` and `agent-context` describe it: core
// methods, then each seed document's names (a name the core shares as PREFIX.NAME) with
// aliasOf and document. `schema` turns a valibot schema into JSON Schema (the caller loads the
// converter, so the daemon pays for it only when asked).
import { COMPAT_TABLES, listedName } from "./compat/index.ts";
import { METHODS } from "./methods.ts";

export type ListedMethod = {
  name: string;
  title: string;
  readOnly: boolean;
  destructive: boolean;
  aliasOf?: string;
  document?: string;
  params: unknown;
  result: unknown;
};

export function methodList(schema: (s: any) => unknown): ListedMethod[] {
  return [
    ...Object.entries(METHODS).map(([name, def]) => ({
      name, title: def.title, readOnly: def.readOnly, destructive: "destructive" in def && def.destructive === true, params: schema(def.params), result: schema(def.result),
    })),
    ...COMPAT_TABLES.flatMap((table) => Object.entries(table.aliases).map(([name, def]) => ({
      name: listedName(table, name), title: def.title, readOnly: def.readOnly, destructive: def.destructive === true,
      // The document's result shape where the alias states it (a DocumentedAlias).
      aliasOf: def.aliasOf, document: table.document, params: schema(def.params), result: "result" in def ? schema(def.result) : {},
    }))),
  ];
}
