// Long text for `type` is sent as several `type` requests, each well inside the frame limit,
// so typing a big file works instead of being refused. Aiming (`to`, `revision`) goes with
// the first piece and the wait with the last, so the call means what one request would mean,
// and the pieces' results add up to one result (every piece's bytes). Text that `type` refuses
// (a control character without raw) is refused before the first piece is sent.
import { requireText } from "../protocol/text-input.ts";

/** Room left in a frame for everything but the text (session, lease, wait, envelope). */
export const TYPE_CHUNK_JSON_BYTES = 256 * 1024;

/** Bytes one UTF-16 code unit (or surrogate pair, counted on its high half) takes in JSON. */
function unitCost(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return 6; // at most \u00XX
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 6;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = text.charCodeAt(i - 1);
    return previous >= 0xd800 && previous <= 0xdbff ? 0 : 6;
  }
  return 3;
}

/** Splits at code point boundaries into pieces whose JSON string form fits `limit` bytes. */
export function chunkText(text: string, limit = TYPE_CHUNK_JSON_BYTES): string[] {
  const pieces: string[] = [];
  let start = 0;
  let size = 2; // the quotes
  for (let i = 0; i < text.length; i++) {
    const cost = unitCost(text, i);
    // The low half of a surrogate pair, or the LF of a CRLF (a paste sends it as one CR).
    const pairTail = cost === 0 || (text.charCodeAt(i) === 0x0a && text.charCodeAt(i - 1) === 0x0d);
    if (!pairTail && size + cost > limit && i > start) {
      pieces.push(text.slice(start, i));
      start = i;
      size = 2;
    }
    size += cost;
  }
  if (start < text.length || pieces.length === 0) pieces.push(text.slice(start));
  return pieces;
}

type TypeParams = { text: string; paste?: unknown; raw?: unknown; to?: unknown; revision?: unknown; wait?: unknown; [key: string]: unknown };

/** The requests one `type` call becomes; a single one when the text is small. */
export function typeRequests(params: TypeParams): TypeParams[] {
  const pieces = chunkText(params.text);
  if (pieces.length === 1) return [params];
  if (params.paste !== true && params.raw !== true) requireText(params.text);
  const { to, revision, wait, ...common } = params;
  return pieces.map((text, i) => {
    const request: TypeParams = { ...common, text };
    if (i === 0 && to !== undefined) request.to = to;
    if (i === 0 && revision !== undefined) request.revision = revision;
    if (i === pieces.length - 1 && wait !== undefined) request.wait = wait;
    return request;
  });
}

type TypeResult = { bytes: number; revisionBefore: number; controlsRemoved?: number; bracketed?: boolean; target?: unknown; [key: string]: unknown };

/** One result for the pieces' results: every piece's bytes (and left-out controls), the
 * revision before the first, the target the first was aimed at, the rest from the last. */
export function combineTypeResults(results: unknown[]): unknown {
  const last = results.at(-1) as TypeResult | undefined;
  if (results.length < 2 || typeof last?.bytes !== "number") return last;
  const pieces = results as TypeResult[];
  const combined: TypeResult = { ...last, bytes: pieces.reduce((sum, r) => sum + r.bytes, 0), revisionBefore: pieces[0]!.revisionBefore };
  if (last.controlsRemoved !== undefined) combined.controlsRemoved = pieces.reduce((sum, r) => sum + (r.controlsRemoved ?? 0), 0);
  if (last.bracketed !== undefined) combined.bracketed = pieces.every((r) => r.bracketed === true);
  if (pieces[0]!.target !== undefined) combined.target = pieces[0]!.target;
  return combined;
}
