// Flags that set a method's params, built from the method table's facts (generated plain data:
// the thin CLI loads no valibot): the type, the help text, the default and the choices are the
// param's own, so a flag cannot drift from the param it sets. The facts are read when a flag's
// details are first asked for (parsing that verb's words, help), not at every CLI start.
import { paramFactsOf, type ParamFact } from "../protocol/generated/method-facts.ts";
import type { FlagSpec, FlagType, ParsedArgs } from "./flags.ts";

function factOf(method: string, param: string): ParamFact {
  const fact = paramFactsOf(method)?.[param];
  // A verb naming a param its method lacks is a bug in the verb table (tests/unit/cli/param-flags.test.ts).
  if (!fact) throw new Error(`method ${method} has no param ${param}`);
  return fact;
}

const FLAG_TYPE: Record<ParamFact["type"], FlagType> = { bool: "bool", int: "int", number: "string", string: "string", list: "list", json: "string" };

/** A flag documented by `method`'s `param` (type, help, default, choices), without setting it:
 * for flags the verb turns into a param of another shape (a wait condition, a cell). */
export function docFlag(method: string, param: string, name: string, extra: Partial<FlagSpec> = {}): FlagSpec {
  return lazyFlag(name, () => builtFlag(method, param, name, extra));
}

function builtFlag(method: string, param: string, name: string, extra: Partial<FlagSpec>): FlagSpec {
  const fact = factOf(method, param);
  const type = FLAG_TYPE[fact.type];
  const value = type === "bool" ? undefined : /Ms$/.test(param) ? "MS" : type === "int" ? "N" : param.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
  // The default is shown unless the param's own help already tells it.
  const shownDefault = fact.default !== undefined && type !== "bool" && !/default/.test(fact.description ?? "") ? ` (default ${fact.default})` : "";
  return {
    name, type, description: `${fact.description ?? param}${shownDefault}`,
    ...(value ? { value } : {}),
    ...(fact.default !== undefined ? { default: fact.default } : {}),
    ...(fact.choices ? { choices: fact.choices } : {}),
    ...extra,
  };
}

/** A flag that sets `method`'s `param` to its value as given (a bool flag sets true). */
export function paramFlag(method: string, param: string, name: string, extra: Partial<FlagSpec> = {}): FlagSpec {
  return lazyFlag(name, () => ({ ...builtFlag(method, param, name, extra), param }), param);
}

/** A flag whose name (and param) are known at once and the rest when first read. */
function lazyFlag(name: string, build: () => FlagSpec, param?: string): FlagSpec {
  let built: FlagSpec | null = null;
  const spec = () => (built ??= build());
  return {
    name,
    ...(param === undefined ? {} : { param }),
    get aliases() { return spec().aliases; },
    get type() { return spec().type; },
    get value() { return spec().value; },
    get description() { return spec().description; },
    get default() { return spec().default; },
    get choices() { return spec().choices; },
  };
}

/** The params set by the verb's param flags that were given. */
export function paramsFromFlags(args: ParsedArgs, flags: FlagSpec[]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const flag of flags) {
    if (flag.param !== undefined && args.flags.has(flag.name)) params[flag.param] = args.flags.get(flag.name);
  }
  return params;
}
