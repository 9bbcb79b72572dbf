// What one client connection may cost the daemon. A client that stops reading (a stalled
// `tuiwright events | …`, a script that never reads its replies) must not grow the daemon
// without bound: events past the event limit are dropped and counted (the next event that
// goes out says `dropped: N`); a reply past the hard limit closes the connection, with the
// reason in the daemon log. A frame left half-sent is dropped with its connection after an
// idle time, and a connection holds a bounded number of subscriptions.
import { setting } from "../runtime/settings.ts";

/** Unread bytes past which events for this connection are dropped (replies still go out). */
export const EVENT_QUEUE_LIMIT_BYTES = 1 << 20;
/** Unread bytes past which a reply closes the connection instead of being queued. */
export const REPLY_QUEUE_LIMIT_BYTES = 64 << 20;
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 64;
/** How long a partial frame (no newline yet) may sit without more bytes arriving. */
export const PARTIAL_FRAME_IDLE_MS = 30_000;

/** TUIWRIGHT_FRAME_IDLE_MS shortens the partial-frame timeout (tests). */
export function partialFrameIdleMs(): number {
  return setting("frameIdleMs") ?? PARTIAL_FRAME_IDLE_MS;
}
