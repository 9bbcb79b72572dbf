// "Did you mean": the closest known word to a mistyped verb or flag, by edit distance (a swap of
// two neighbours counts as one edit), or null when nothing is close enough to be a typo.
export function closest(word: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of new Set(candidates)) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) { best = candidate; bestDistance = distance; }
  }
  // One edit per three letters: `snapshto` → snapshot, but `x` suggests nothing.
  const allowed = Math.max(1, Math.floor(word.replace(/^-+/, "").length / 3));
  return best !== null && bestDistance <= allowed ? best : null;
}

/** " (did you mean X?)" or "". */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = closest(word, candidates);
  return match ? ` (did you mean ${match}?)` : "";
}

function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = value;
    }
  }
  return d[rows * cols - 1]!;
}
