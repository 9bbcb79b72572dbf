// Subscriptions to session events, delivered as JSON-RPC notifications on the subscriber's
// connection. With a debounce window, screen events are throttled per session: the first goes
// out at once, later ones within the window fold into one (the latest) sent when it ends.
// Any other event of that session flushes a held screen event first, so order is kept.
import { TuiwrightError } from "../protocol/errors.ts";
import type { EventTypeValue, EventValue } from "../protocol/methods.ts";
import type { Connection } from "../runtime/unix-socket.ts";
import { EVENT_QUEUE_LIMIT_BYTES, MAX_SUBSCRIPTIONS_PER_CONNECTION } from "../transport/connection-limits.ts";

export type SessionEvent = Omit<EventValue, "subscription">;

type Held = { event: SessionEvent; folded: number; timer: ReturnType<typeof setTimeout> };

type Subscription = {
  id: string;
  connection: Connection;
  session: string | null;
  types: Set<EventTypeValue>;
  debounceMs: number;
  lastScreenAt: Map<string, number>;
  held: Map<string, Held>;
  /** Events not sent because the connection was not reading; told with the next one. */
  dropped: number;
};

export type SubscribeOptions = { session: string | null; types: EventTypeValue[]; debounceMs: number };

export class EventHub {
  readonly #subscriptions = new Map<string, Subscription>();
  readonly #observers = new Set<(event: SessionEvent) => void>();
  #next = 1;

  /** In-daemon observers of every event (AOTUI desktops watching their terminal apps). */
  observe(listener: (event: SessionEvent) => void): () => void {
    this.#observers.add(listener);
    return () => this.#observers.delete(listener);
  }

  subscribe(connection: Connection, options: SubscribeOptions): string {
    let held = 0;
    for (const subscription of this.#subscriptions.values()) if (subscription.connection === connection) held++;
    if (held >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      throw new TuiwrightError("busy", `this connection already has ${held} subscriptions (the limit is ${MAX_SUBSCRIPTIONS_PER_CONNECTION})`, {
        hint: "unsubscribe from one first, or subscribe once to every session (no session given)",
      });
    }
    const id = `sub-${this.#next++}`;
    this.#subscriptions.set(id, {
      id, connection, session: options.session, types: new Set(options.types), debounceMs: options.debounceMs,
      lastScreenAt: new Map(), held: new Map(), dropped: 0,
    });
    return id;
  }

  unsubscribe(id: string, connection: Connection): void {
    const subscription = this.#subscriptions.get(id);
    if (!subscription || subscription.connection !== connection) {
      throw new TuiwrightError("bad-data", `no subscription ${JSON.stringify(id)} on this connection`, { hint: "subscriptions belong to the connection that made them" });
    }
    this.#drop(subscription);
  }

  dropConnection(connection: Connection): void {
    for (const subscription of this.#subscriptions.values()) if (subscription.connection === connection) this.#drop(subscription);
  }

  get size(): number {
    return this.#subscriptions.size;
  }

  publish(event: SessionEvent): void {
    for (const observer of this.#observers) observer(event);
    for (const subscription of this.#subscriptions.values()) {
      if (subscription.session !== null && subscription.session !== event.session) continue;
      if (event.type !== "screen") this.#flush(subscription, event.session);
      if (!subscription.types.has(event.type)) continue;
      if (event.type === "screen" && subscription.debounceMs > 0) this.#throttle(subscription, event);
      else this.#send(subscription, event);
    }
  }

  #throttle(subscription: Subscription, event: SessionEvent): void {
    const held = subscription.held.get(event.session);
    if (held) {
      held.event = event;
      held.folded++;
      return;
    }
    const now = performance.now();
    const last = subscription.lastScreenAt.get(event.session) ?? -Infinity;
    if (now - last >= subscription.debounceMs) {
      subscription.lastScreenAt.set(event.session, now);
      this.#send(subscription, event);
      return;
    }
    const timer = setTimeout(() => this.#flush(subscription, event.session), last + subscription.debounceMs - now);
    subscription.held.set(event.session, { event, folded: 1, timer });
  }

  #flush(subscription: Subscription, session: string): void {
    const held = subscription.held.get(session);
    if (!held) return;
    clearTimeout(held.timer);
    subscription.held.delete(session);
    subscription.lastScreenAt.set(session, performance.now());
    this.#send(subscription, held.folded > 1 ? { ...held.event, coalesced: held.folded } : held.event);
  }

  #send(subscription: Subscription, event: SessionEvent): void {
    if (subscription.connection.queuedBytes > EVENT_QUEUE_LIMIT_BYTES) {
      subscription.dropped++;
      return;
    }
    const dropped = subscription.dropped > 0 ? { dropped: subscription.dropped } : {};
    subscription.dropped = 0;
    subscription.connection.send(JSON.stringify({ jsonrpc: "2.0", method: "event", params: { subscription: subscription.id, ...event, ...dropped } }) + "\n");
  }

  #drop(subscription: Subscription): void {
    for (const held of subscription.held.values()) clearTimeout(held.timer);
    this.#subscriptions.delete(subscription.id);
  }
}
