// A cheap content hash of the visible screen, computed after every parsed write. It reads
// xterm's packed cell arrays (3 uint32 per cell: content, fg, bg) so attribute-only changes
// such as a moving selection bar change the hash too. xterm is pinned (6.0.0); if its
// internals ever move, we fall back to the public API (text only) rather than break.
import type xt from "@xterm/headless";

type PackedLine = { _data?: Uint32Array; _combined?: Record<number, string>; length: number };

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function foldString(hash: number, text: string): number {
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash;
}

function foldLine(hash: number, line: PackedLine): number {
  const data = line._data!;
  const end = line.length * 3;
  for (let i = 0; i < end; i++) hash = Math.imul(hash ^ data[i]!, FNV_PRIME);
  const combined = line._combined;
  if (combined) for (const key in combined) hash = foldString(hash, combined[key]!);
  return hash;
}

export function hashScreen(term: xt.Terminal, extra: string): string {
  const buffer = term.buffer.active;
  const core = (term as unknown as { _core?: { buffer?: { lines?: { get(i: number): PackedLine | undefined } } } })._core;
  const lines = core?.buffer?.lines;
  let hash = FNV_OFFSET;
  for (let y = 0; y < term.rows; y++) {
    const packed = lines?.get(buffer.baseY + y);
    if (packed?._data) hash = foldLine(hash, packed);
    else hash = foldString(hash, buffer.getLine(buffer.baseY + y)?.translateToString(false) ?? "");
    hash = Math.imul(hash ^ 10, FNV_PRIME);
  }
  hash = foldString(hash, `${buffer.type}|${buffer.cursorX},${buffer.cursorY}|${extra}`);
  return (hash >>> 0).toString(16).padStart(8, "0");
}
