// The input stream of §5.5: one writer at a time, enforced — acquire by another owner, or an
// execute by anyone but the holder while it is held, is refused (not advisory).
import { desktopError } from "./aotui-codes.ts";

export class InputLock {
  #owner: string | null = null;

  get owner(): string | null {
    return this.#owner;
  }

  acquire(owner: string): void {
    if (!owner) throw desktopError("invalid-command", "acquire needs an owner id");
    if (this.#owner !== null && this.#owner !== owner) throw desktopError("desktop-locked", `the desktop's input is held by ${JSON.stringify(this.#owner)}`, { owner: this.#owner });
    this.#owner = owner;
  }

  release(owner?: string): void {
    if (owner !== undefined && this.#owner !== null && this.#owner !== owner) throw desktopError("desktop-locked", `the desktop's input is held by ${JSON.stringify(this.#owner)}, not ${JSON.stringify(owner)}`, { owner: this.#owner });
    this.#owner = null;
  }

  /** Throws unless `owner` may write now. */
  check(owner: string | undefined): void {
    if (this.#owner === null || this.#owner === owner) return;
    throw desktopError("desktop-locked", `the desktop's input is held by ${JSON.stringify(this.#owner)}${owner ? `, not ${JSON.stringify(owner)}` : " (pass your owner id)"}`, { owner: this.#owner });
  }
}
