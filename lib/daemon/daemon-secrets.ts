// Secrets typed with --secret in any session of this daemon, kept in its memory only (never
// written anywhere), so that every session masks them: a secret typed in one session can be
// drawn by another — fish suggests it from its history, a pager shows a file it went into.
// A new session starts with them; a live one is told of each new one. A daemon that restarts
// forgets them: what it never saw it cannot mask.
import type { SessionRegistry } from "./registry.ts";

export class DaemonSecrets {
  readonly #secrets = new Set<string>();

  /** Every secret so far, for a session that is starting. */
  all(): string[] {
    return [...this.#secrets];
  }

  /** A secret typed in session `from`: every other live session masks it from now on. */
  add(secret: string, from: string, registry: SessionRegistry): void {
    if (this.#secrets.has(secret)) return;
    this.#secrets.add(secret);
    for (const entry of registry.all()) {
      if (entry.name !== from && !entry.exit) entry.worker.call("addSecrets", { secrets: [secret] }).catch(() => undefined);
    }
  }
}
