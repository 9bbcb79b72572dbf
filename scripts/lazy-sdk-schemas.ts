// Build-time: the MCP SDK does work at load time that `tuiwright mcp` mostly never needs, and
// an agent waits for it before its first answer. This bundler plugin defers two pieces:
// - types.js builds every zod schema of the protocol (~170, ~800 zod objects) when it loads —
//   ~15 ms, most of it for messages a server never parses (sampling, elicitation, tasks …).
//   Each top-level schema constant `const X = <zod expression>;` becomes
//   `const X = lazySchema(() => <zod expression>)`: a stand-in that builds the schema the first
//   time anything touches it and then forwards every operation to it.
// - validation/ajv-provider.js imports Ajv and ajv-formats (~50 CommonJS modules, ~2.7 ms)
//   for the one server feature that validates with it, elicitation, which tuiwright never
//   uses (lib/mcp/deferred-validator.ts never even builds the instance). Its two imports become
//   stand-ins that require them when an instance is first made.
// The SDK's own code runs unchanged otherwise; only what a session uses is built.
//
// The rewrites are checked, not trusted: the result must parse and export exactly the names
// the original does, types.js must have a sane number of constants rewritten, and the two
// import lines must be found — otherwise the build stops and says so (an SDK release that
// changed these files needs a look here, not a silent slowdown or a broken bundle).
import type { BunPlugin } from "bun";

/** Match the SDK's types.js and ajv-provider.js, wherever node_modules is. */
const TYPES_JS = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]types\.js$/;
const AJV_PROVIDER_JS = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]validation[\\/]ajv-provider\.js$/;

/** The stand-in: a Proxy over the schema, which it builds on first use. Operations go to the
 * built schema itself (so zod's own `this` and bound methods see the real object). */
const LAZY_SCHEMA = `function lazySchema(build) {
  let built;
  const real = () => (built ??= build());
  return new Proxy({}, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(real(), key);
      return found && { ...found, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
`;

/** A top-level `(export) const NAME = ` whose value is built with zod: `z.…`/`z` then a chained
 * line, or another schema constant's method (`ResultSchema.extend(…)`). Plain aliases
 * (`= OtherSchema;`), literals and arrow functions stay as they are. */
const SCHEMA_START = /^((?:export )?const [A-Za-z_$][\w$]* = )(z(?:\.|$)|[A-Za-z_$][\w$]*Schema\.)/;

/** A line at column 0 that continues the statement above it (closing brackets, chained calls). */
const CONTINUES = /^[)\]}.,]/;

export function lazifySchemas(source: string): { code: string; rewritten: number } {
  const lines = source.split("\n");
  const out: string[] = [];
  let rewritten = 0;
  for (let i = 0; i < lines.length; i++) {
    const start = SCHEMA_START.exec(lines[i]!);
    if (!start) {
      out.push(lines[i]!);
      continue;
    }
    // The statement ends at the first line ending in ";" that the next line does not continue.
    let end = i;
    while (end < lines.length) {
      const next = lines.slice(end + 1).find((line) => line.trim() !== "");
      if (lines[end]!.trimEnd().endsWith(";") && (next === undefined || (/^\S/.test(next) && !CONTINUES.test(next)))) break;
      end++;
    }
    if (end >= lines.length) throw new Error(`lazy-sdk-schemas: no end found for the statement at types.js line ${i + 1}`);
    const statement = lines.slice(i, end + 1).join("\n").trimEnd();
    const expression = statement.slice(start[1]!.length, -1); // without the head and the final ";"
    out.push(`${start[1]}lazySchema(() => ${expression});`);
    rewritten++;
    i = end;
  }
  return { code: `${out.join("\n")}\n${LAZY_SCHEMA}`, rewritten };
}

/** The checks that make the rewrite safe to ship (see the header). */
export function checkedLazySchemas(source: string): string {
  const { code, rewritten } = lazifySchemas(source);
  const transpiler = new Bun.Transpiler({ loader: "js" });
  const before = transpiler.scan(source).exports.sort();
  let after: string[];
  try {
    after = transpiler.scan(code).exports.sort();
  } catch (error) {
    throw new Error(`lazy-sdk-schemas: the rewritten types.js does not parse (${(error as Error).message}); the SDK's layout changed — update scripts/lazy-sdk-schemas.ts`);
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) throw new Error("lazy-sdk-schemas: the rewritten types.js exports other names than the original; update scripts/lazy-sdk-schemas.ts");
  if (rewritten < 100) throw new Error(`lazy-sdk-schemas: only ${rewritten} schema constants found in types.js (expected well over 100); update scripts/lazy-sdk-schemas.ts`);
  return code;
}

/** ajv-provider.js' imports, and stand-ins with the same names: `new Ajv(options)` and
 * `_addFormats(ajv)` load the modules on their first call. */
const AJV_IMPORTS = "import Ajv from 'ajv';\nimport _addFormats from 'ajv-formats';\n";
const AJV_ON_USE = `function Ajv(options) {
  const Real = require('ajv');
  return new (Real.default ?? Real)(options);
}
function _addFormats(ajv, options) {
  const add = require('ajv-formats');
  return (add.default ?? add)(ajv, options);
}
`;

export function checkedAjvOnUse(source: string): string {
  if (!source.includes(AJV_IMPORTS)) throw new Error("lazy-sdk-schemas: ajv-provider.js no longer starts with the Ajv and ajv-formats imports it rewrites; update scripts/lazy-sdk-schemas.ts");
  const code = source.replace(AJV_IMPORTS, AJV_ON_USE);
  const transpiler = new Bun.Transpiler({ loader: "js" });
  if (JSON.stringify(transpiler.scan(code).exports) !== JSON.stringify(transpiler.scan(source).exports)) throw new Error("lazy-sdk-schemas: the rewritten ajv-provider.js exports other names; update scripts/lazy-sdk-schemas.ts");
  return code;
}

export const lazySdkSchemas: BunPlugin = {
  name: "lazy-sdk-schemas",
  setup(build) {
    build.onLoad({ filter: TYPES_JS }, async ({ path }) => ({ contents: checkedLazySchemas(await Bun.file(path).text()), loader: "js" }));
    build.onLoad({ filter: AJV_PROVIDER_JS }, async ({ path }) => ({ contents: checkedAjvOnUse(await Bun.file(path).text()), loader: "js" }));
  },
};
