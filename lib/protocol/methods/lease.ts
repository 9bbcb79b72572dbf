// The write lease: one owner's input at a time.
import * as v from "valibot";
import { doc, Lease, LeaseToken } from "../schemas.ts";
import { type MethodDef, target } from "./common.ts";

/** A CLI process's connection closes when it exits, so its leases need a lifetime of their own. */
const CLI_LEASE_TTL_MS = 60_000;

export const LEASE_METHODS = {
  "lease.acquire": {
    tool: "admin",
    title: "Take the session's write lease: other callers' input is refused (exit 75) until it is released or expires",
    cli: {
      verb: "lease acquire",
      summary: "take the session's write lease: others' input is refused (exit 75) until released or expired",
      usage: "lease acquire [--session NAME] --owner ID [--ttl MS]",
      flags: {
        owner: { names: "--owner", value: "ID" },
        ttlMs: { names: "--ttl", value: "MS", description: `expire after MS ms (default for the CLI: ${CLI_LEASE_TTL_MS}; a CLI connection closes at once)`, fill: CLI_LEASE_TTL_MS },
      },
    },
    readOnly: false,
    params: v.strictObject({
      ...target,
      owner: doc(v.pipe(v.string(), v.minLength(1), v.maxLength(200)), "who holds it (shown to refused writers)"),
      ttlMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(24 * 3600_000)), "expire after this long; without it the lease lasts as long as this connection")),
      lease: v.optional(doc(LeaseToken, "renew the lease you hold")),
    }),
    result: Lease,
  },
  "lease.release": {
    tool: "admin",
    title: "Release the session's write lease",
    cli: { verb: "lease release", summary: "release the session's write lease (needs its token: --lease or TUIWRIGHT_LEASE)" },
    readOnly: false,
    params: v.strictObject({ ...target, lease: LeaseToken }),
    result: v.object({ session: v.string(), released: v.literal(true) }),
  },
} as const satisfies Record<string, MethodDef>;
