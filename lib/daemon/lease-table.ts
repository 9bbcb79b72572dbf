// Write leases (single-writer input): while a session is leased, input methods without the
// lease's token are refused as busy (exit 75) naming the holder. A lease with a TTL expires on
// a timer; one without lasts as long as the connection that took it. Every change is reported
// so subscribers can wait for a lease to be free instead of retrying.
import { randomUUID } from "node:crypto";
import { TuiwrightError } from "../protocol/errors.ts";
import type { LeaseValue } from "../protocol/methods.ts";
import type { Connection } from "../runtime/unix-socket.ts";

type Held = {
  owner: string;
  token: string;
  expiresAt: number | null;
  connection: Connection | null;
  timer?: ReturnType<typeof setTimeout>;
};

export type LeaseChanged = (session: string, owner: string | null) => void;

function describe(held: Held): string {
  if (held.expiresAt === null) return "until its connection closes";
  return `for another ${((held.expiresAt - Date.now()) / 1000).toFixed(1)} s`;
}

export class LeaseTable {
  readonly #leases = new Map<string, Held>();
  readonly #changed: LeaseChanged;

  constructor(changed: LeaseChanged) {
    this.#changed = changed;
  }

  acquire(session: string, options: { owner: string; ttlMs?: number; token?: string; connection: Connection }): LeaseValue {
    const current = this.#leases.get(session);
    if (current && current.token !== options.token) throw this.#busy(session, current);
    if (current?.timer) clearTimeout(current.timer);
    const held: Held = {
      owner: options.owner,
      token: current?.token ?? randomUUID(),
      expiresAt: options.ttlMs === undefined ? null : Date.now() + options.ttlMs,
      connection: options.ttlMs === undefined ? options.connection : null,
    };
    if (options.ttlMs !== undefined) held.timer = setTimeout(() => this.#end(session), options.ttlMs);
    this.#leases.set(session, held);
    if (current?.owner !== held.owner) this.#changed(session, held.owner);
    return { session, owner: held.owner, token: held.token, expiresAt: held.expiresAt === null ? null : new Date(held.expiresAt).toISOString() };
  }

  release(session: string, token: string): void {
    const current = this.#leases.get(session);
    if (!current) throw new TuiwrightError("bad-data", `session ${JSON.stringify(session)} has no write lease to release`);
    if (current.token !== token) {
      throw new TuiwrightError("permission", `the write lease on session ${JSON.stringify(session)} is held by ${JSON.stringify(current.owner)}; the token given is not its token`);
    }
    this.#end(session);
  }

  /** Throws busy unless the session is free or the token is its lease's. */
  check(session: string, token: string | undefined): void {
    const current = this.#leases.get(session);
    if (current && current.token !== token) throw this.#busy(session, current);
  }

  /** The session is gone: its lease goes with it (no event: the exit event says it all). */
  forget(session: string): void {
    const current = this.#leases.get(session);
    if (current?.timer) clearTimeout(current.timer);
    this.#leases.delete(session);
  }

  dropConnection(connection: Connection): void {
    for (const [session, held] of this.#leases) if (held.connection === connection) this.#end(session);
  }

  #end(session: string): void {
    const current = this.#leases.get(session);
    if (!current) return;
    if (current.timer) clearTimeout(current.timer);
    this.#leases.delete(session);
    this.#changed(session, null);
  }

  #busy(session: string, held: Held): TuiwrightError {
    return new TuiwrightError("busy", `session ${JSON.stringify(session)} is leased to ${JSON.stringify(held.owner)} ${describe(held)}`, {
      hint: "retry when the lease is released (`tuiwright events --types lease` tells you), or pass its token with --lease (env TUIWRIGHT_LEASE)",
      details: { owner: held.owner },
    });
  }
}
