// Leak hunting and fault tests; refused unless the daemon runs with TUIWRIGHT_DEBUG=1.
import * as v from "valibot";
import { doc } from "../schemas.ts";
import { type MethodDef, target } from "./common.ts";

/** One JS thread's heap, as JavaScriptCore counts it. */
const HeapReport = v.object({
  heapSize: v.number(),
  heapCapacity: v.number(),
  extraMemorySize: v.number(),
  objectCount: v.number(),
  types: v.record(v.string(), v.number()),
});

export const DEBUG_METHODS = {
  "debug.memory": {
    tool: false,
    title: "Memory of the daemon thread and of each session's worker (leak hunting; needs TUIWRIGHT_DEBUG=1 on the daemon)",
    readOnly: true,
    params: v.strictObject({
      gc: v.optional(doc(v.boolean(), "run a full garbage collection in each thread first"), false),
      types: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "how many of the most numerous object types to list per thread"), 0),
    }),
    result: v.object({
      rssBytes: v.number(),
      daemon: HeapReport,
      sessions: v.array(v.object({ session: v.string(), thread: doc(v.number(), "the worker thread hosting it; sessions of one thread report its one heap"), heap: v.nullable(HeapReport) })),
    }),
  },
  "debug.crashWorker": {
    tool: false,
    title: "Make a session's code in its worker thread throw (that session alone ends), or end a loaded worker thread that hosts no session (fault testing; needs TUIWRIGHT_DEBUG=1 on the daemon)",
    readOnly: false,
    destructive: true,
    params: v.strictObject({
      ...target,
      spare: v.optional(doc(v.boolean(), "end every loaded worker thread with no sessions (the spare started ahead of the next spawn) instead, without telling the daemon, as a crash would"), false),
      thread: v.optional(doc(v.boolean(), "make the session's whole thread fail, as a fault no session can be blamed for would (a promise rejected with no handler): every session it hosts ends"), false),
    }),
    result: v.object({ session: v.string() }),
  },
} as const satisfies Record<string, MethodDef>;
