// For a test file whose outlines must come from the built-in manifests only: points
// TUIWRIGHT_ADAPTERS_DIR at an empty directory of its own for the file's tests, then restores it.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Call at a test file's top level. */
export function useBuiltinAdaptersOnly(prefix: string): void {
  let adapters: string;
  const saved = process.env.TUIWRIGHT_ADAPTERS_DIR;
  beforeAll(() => {
    adapters = mkdtempSync(join(tmpdir(), prefix));
    process.env.TUIWRIGHT_ADAPTERS_DIR = adapters;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TUIWRIGHT_ADAPTERS_DIR;
    else process.env.TUIWRIGHT_ADAPTERS_DIR = saved;
    rmSync(adapters, { recursive: true, force: true });
  });
}
