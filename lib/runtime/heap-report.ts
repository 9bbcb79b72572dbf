// The calling thread's JS heap (each worker has its own), for the debug.memory probe.
import { heapStats } from "bun:jsc";

export type HeapReport = { heapSize: number; heapCapacity: number; extraMemorySize: number; objectCount: number; types: Record<string, number> };

/** `gc`: collect fully first, so what is left is what is retained. `types`: the N most numerous object types. */
export function heapReport(options: { gc: boolean; types: number }): HeapReport {
  if (options.gc) Bun.gc(true);
  const stats = heapStats();
  const types = Object.fromEntries(Object.entries(stats.objectTypeCounts).sort((a, b) => b[1] - a[1]).slice(0, options.types));
  return { heapSize: stats.heapSize, heapCapacity: stats.heapCapacity, extraMemorySize: stats.extraMemorySize, objectCount: stats.objectCount, types };
}
