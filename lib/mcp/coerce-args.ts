// Models often pass a plain string where a schema wants a list of them (`regex: "^ok$"` for
// `regex: ["^ok$"]`). Where the tool's own JSON Schema says "array" and a string came, it is
// wrapped in a one-element array; nothing else is changed (validation still judges the rest).
type Schema = { type?: string | string[]; properties?: Record<string, Schema>; anyOf?: Schema[] };

function wants(schema: Schema, type: string): boolean {
  if (schema.anyOf) return schema.anyOf.some((option) => wants(option, type));
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

export function coerceArgs(schema: Schema, value: unknown): unknown {
  if (typeof value === "string" && wants(schema, "array") && !wants(schema, "string")) return [value];
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const properties = schema.properties ?? schema.anyOf?.find((option) => option.properties)?.properties;
  if (!properties) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = properties[key] ? coerceArgs(properties[key]!, item) : item;
  return out;
}
