// Flags built from the method table carry the param's own help, default and choices, and set
// exactly that param; a verb cannot name a param its method lacks.
import { expect, test } from "bun:test";
import { parseFlags } from "../../../lib/cli/flags.ts";
import { docFlag, paramFlag, paramsFromFlags } from "../../../lib/cli/param-flags.ts";
import { allVerbs } from "../../../lib/cli/verbs.ts";
import { paramFactsOf } from "../../../lib/protocol/generated/method-facts.ts";

test("a param flag takes the param's type, help, default and choices from the table", () => {
  expect(paramFlag("end", "graceMs", "--grace")).toMatchObject({ name: "--grace", type: "int", value: "MS", default: 2000, param: "graceMs", description: expect.stringContaining("(default 2000)") });
  expect(paramFlag("snapshot", "format", "--format")).toMatchObject({ type: "string", default: "text", choices: ["text", "ansi", "cells", "outline", "svg", "png"] });
  expect(paramFlag("exec", "queue", "--queue")).toMatchObject({ type: "bool", param: "queue" });
  expect(docFlag("wait", "timeoutMs", "--timeout")).toMatchObject({ default: 10_000 });
  expect(docFlag("wait", "timeoutMs", "--timeout")).not.toHaveProperty("param");
  expect(() => paramFlag("end", "nonsense", "--x").type).toThrow("method end has no param nonsense");
});

test("given param flags set their params as parsed; absent ones set nothing", () => {
  const flags = [paramFlag("exec", "timeoutMs", "--timeout"), paramFlag("exec", "queue", "--queue"), paramFlag("exec", "maxOutput", "--max-output")];
  expect(paramsFromFlags(parseFlags(["--timeout", "5", "--queue"], flags, "exec"), flags)).toEqual({ timeoutMs: 5, queue: true });
  expect(paramsFromFlags(parseFlags([], flags, "exec"), flags)).toEqual({});
});

test("every verb's param flags and positional params name params of its method", () => {
  for (const verb of allVerbs()) {
    for (const flag of verb.flags) if (flag.param) expect({ verb: verb.name, param: flag.param, known: flag.param in (paramFactsOf(verb.method) ?? {}) }).toMatchObject({ known: true });
    for (const param of verb.positionalParams ?? []) expect({ verb: verb.name, param, known: param in (paramFactsOf(verb.method) ?? {}) }).toMatchObject({ known: true });
  }
});
