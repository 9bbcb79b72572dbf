// The input stream of §5.5: one writer at a time, enforced — acquire by another owner, or an
// execute by anyone but the holder while it is held, is refused (not advisory). Over the socket
// the lock is also bound to the connection that took it (`holder`): an owner id is a name, not a
// credential, so another connection presenting the same name can neither write nor release.
import { desktopError } from "./aotui-codes.ts";

export class InputLock {
  #owner: string | null = null;
  #holder: unknown = undefined;

  get owner(): string | null {
    return this.#owner;
  }

  #heldBy(owner: string | undefined, holder: unknown): boolean {
    return this.#owner === owner && (this.#holder === undefined || this.#holder === holder);
  }

  #refuse(owner: string | undefined): never {
    const elsewhere = this.#owner === owner ? " on another connection" : owner ? `, not ${JSON.stringify(owner)}` : " (pass your owner id)";
    throw desktopError("desktop-locked", `the desktop's input is held by ${JSON.stringify(this.#owner)}${elsewhere}`, { owner: this.#owner });
  }

  acquire(owner: string, holder?: unknown): void {
    if (!owner) throw desktopError("invalid-command", "acquire needs an owner id");
    if (this.#owner !== null && !this.#heldBy(owner, holder)) {
      if (this.#owner !== owner) throw desktopError("desktop-locked", `the desktop's input is held by ${JSON.stringify(this.#owner)}`, { owner: this.#owner });
      this.#refuse(owner);
    }
    this.#owner = owner;
    this.#holder = holder;
  }

  release(owner?: string, holder?: unknown): void {
    if (this.#owner !== null && ((owner !== undefined && owner !== this.#owner) || (this.#holder !== undefined && this.#holder !== holder))) this.#refuse(owner);
    this.#owner = null;
    this.#holder = undefined;
  }

  /** Throws unless `owner` (on `holder`'s connection, where the lock has one) may write now. */
  check(owner: string | undefined, holder?: unknown): void {
    if (this.#owner === null || this.#heldBy(owner, holder)) return;
    this.#refuse(owner);
  }
}
