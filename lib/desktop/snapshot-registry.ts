// The snapshot registry of §5.3/§6.3: each snapshot id keeps the view models it was rendered
// from (immutable, so keeping them costs a reference), so `todo_list[0]` in a later command
// resolves to the data-value the agent saw, even if that item has since been unmounted.
import { desktopError } from "./aotui-codes.ts";
import type { Item, ViewModel } from "./view-model.ts";

export const SNAPSHOT_LIMIT = 32;

export type RegisteredView = { appAlias: string; viewId: string; model: ViewModel };

export type RegisteredSnapshot = { id: string; number: number; views: RegisteredView[] };

export class SnapshotRegistry {
  readonly #snapshots = new Map<string, RegisteredSnapshot>();
  #counter = 0;

  register(views: RegisteredView[]): RegisteredSnapshot {
    const number = ++this.#counter;
    const snapshot = { id: `T${number}`, number, views };
    this.#snapshots.set(snapshot.id, snapshot);
    if (this.#snapshots.size > SNAPSHOT_LIMIT) this.#snapshots.delete(this.#snapshots.keys().next().value!);
    return snapshot;
  }

  latest(): RegisteredSnapshot | undefined {
    let last: RegisteredSnapshot | undefined;
    for (const snapshot of this.#snapshots.values()) last = snapshot;
    return last;
  }

  get(id: string | undefined): RegisteredSnapshot {
    if (id === undefined) {
      const latest = this.latest();
      if (!latest) throw desktopError("desktop-not-found", "this desktop has not been read yet: item references mean what a snapshot showed", {}, "read the desktop first (`tuiwright desktop snapshot`, desktop.snapshot)");
      return latest;
    }
    const found = this.#snapshots.get(id);
    if (found) return found;
    const number = /^T(\d+)$/.exec(id)?.[1];
    // The agent never sees snapshot ids (the bridge keeps them): the messages speak of what it read.
    if (number !== undefined && Number(number) <= this.#counter) {
      throw desktopError("snapshot-too-old", `the desktop this command refers to was read too long ago (the desktop keeps its last ${SNAPSHOT_LIMIT} snapshots); read it again and use what it shows now`, { snapshot_id: id });
    }
    throw desktopError("desktop-not-found", "the snapshot this command refers to was never taken of this desktop; read the desktop and use what it shows", { snapshot_id: id });
  }

  /** Resolves LIST[INDEX] in the app's views of that snapshot (the context view first). */
  static resolveItem(snapshot: RegisteredSnapshot, appAlias: string, viewId: string | undefined, listId: string, index: number): { item: Item; type: string } {
    const views = snapshot.views.filter((v) => v.appAlias === appAlias).sort((a, b) => Number(b.viewId === viewId) - Number(a.viewId === viewId));
    for (const view of views) {
      for (const block of view.model.blocks) {
        if (block.kind !== "list" || block.id !== listId) continue;
        const item = block.items[index];
        if (!item) throw desktopError("desktop-not-found", `${listId}[${index}] was not in the desktop you read (${listId} had ${block.items.length} item${block.items.length === 1 ? "" : "s"}: ${listId}[0]..${listId}[${Math.max(0, block.items.length - 1)}])`, { snapshot_id: snapshot.id });
        return { item, type: block.type };
      }
    }
    const lists = views.flatMap((v) => v.model.blocks.flatMap((b) => (b.kind === "list" ? [b.id] : [])));
    throw desktopError("desktop-not-found", `${appAlias} showed no list ${JSON.stringify(listId)} in the desktop you read${lists.length > 0 ? ` (its lists: ${[...new Set(lists)].join(", ")})` : ""}`, { snapshot_id: snapshot.id });
  }

  toJSON(): { counter: number } {
    return { counter: this.#counter };
  }

  /** After a restore, new snapshot ids continue where the saved desktop stopped. */
  setCounter(counter: number): void {
    this.#counter = Math.max(this.#counter, counter);
  }
}
