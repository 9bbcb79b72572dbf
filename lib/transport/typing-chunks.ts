// Long text for `type` is sent as several `type` requests, each well inside the frame limit,
// so typing a big file works instead of being refused. Aiming (`to`, `revision`) goes with
// the first piece and the wait with the last, so the call means what one request would mean.

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
    const pairTail = cost === 0;
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

type TypeParams = { text: string; to?: unknown; revision?: unknown; wait?: unknown; [key: string]: unknown };

/** The requests one `type` call becomes; a single one when the text is small. */
export function typeRequests(params: TypeParams): TypeParams[] {
  const pieces = chunkText(params.text);
  if (pieces.length === 1) return [params];
  const { to, revision, wait, ...common } = params;
  return pieces.map((text, i) => {
    const request: TypeParams = { ...common, text };
    if (i === 0 && to !== undefined) request.to = to;
    if (i === 0 && revision !== undefined) request.revision = revision;
    if (i === pieces.length - 1 && wait !== undefined) request.wait = wait;
    return request;
  });
}
