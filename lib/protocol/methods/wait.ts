// Waiting on and watching screens: conditions evaluated on every parsed write, and event subscriptions.
import * as v from "valibot";
import { doc, EventType, SessionName, WaitConditions, WaitResult } from "../schemas.ts";
import { type MethodDef, target } from "./common.ts";

export const WAIT_METHODS = {
  wait: {
    tool: "core",
    forward: true,
    title: "Wait until screen conditions hold, evaluated on every parsed write (no polling). A wait for an AI CLI's turn (--turn, or a ref under its root such as @gemini.done) fails with expectation-failed (exit 1) once the prompt was plainly not taken: still the input's value, the screen still 5 s; press Enter again",
    cli: {
      verb: "wait",
      summary: "wait until the screen meets conditions (evaluated on every write, never polled)",
      usage: "wait [--session NAME] [--text STR]... [--regex RE]... [--settled MS] [--exit] ... [--all] [--timeout MS]",
      flags: { "@wait": "", "--print": { type: "bool", description: "print the screen once the wait is over" } },
    },
    readOnly: true,
    params: v.strictObject({ ...target, ...WaitConditions, includeText: v.optional(doc(v.boolean(), "return the screen text with the result"), false), fromNow: v.optional(doc(v.boolean(), "count settledMs from this call: a screen already still before it does not count")) }),
    result: WaitResult,
  },
  subscribe: {
    tool: false,
    title: "Receive events (screen, title, bell, exit, resize, lease) as `event` notifications on this connection",
    readOnly: true,
    params: v.strictObject({
      session: v.optional(doc(SessionName, "only this session's events; default: every session, present and future")),
      types: v.optional(v.pipe(v.array(EventType), v.minLength(1, "name at least one event type"))),
      debounceMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000)), "coalesce screen events per session: at most one per window, the latest"), 0),
    }),
    result: v.object({ subscription: v.string() }),
  },
  unsubscribe: {
    tool: false,
    title: "Stop a subscription",
    readOnly: true,
    params: v.strictObject({ subscription: v.string() }),
    result: v.object({ subscription: v.string(), unsubscribed: v.literal(true) }),
  },
} as const satisfies Record<string, MethodDef>;
