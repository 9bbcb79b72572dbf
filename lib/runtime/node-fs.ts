// node:fs for the files the thin CLI loads at start, loaded at the first call: Bun evaluates its
// fs module on import, ~1 ms of CPU per process, which `--version`, help and usage errors never
// need (a daemon call does: the socket checks lstat). scripts/check-layers.ts keeps node:fs out
// of main.ts's static closure; everything else imports node:fs as usual.
type NodeFs = typeof import("node:fs");

let loaded: NodeFs | null = null;
const fs = (): NodeFs => (loaded ??= require("node:fs") as NodeFs);

/** `name` of node:fs, its module loaded when first called. */
function lazy<K extends keyof NodeFs>(name: K): NodeFs[K] {
  return ((...args: unknown[]) => (fs()[name] as (...args: unknown[]) => unknown)(...args)) as NodeFs[K];
}

export const closeSync = lazy("closeSync");
export const existsSync = lazy("existsSync");
export const fstatSync = lazy("fstatSync");
export const linkSync = lazy("linkSync");
export const lstatSync = lazy("lstatSync");
export const mkdirSync = lazy("mkdirSync");
export const openSync = lazy("openSync");
export const readFileSync = lazy("readFileSync");
export const readlinkSync = lazy("readlinkSync");
export const readSync = lazy("readSync");
export const realpathSync = lazy("realpathSync");
export const renameSync = lazy("renameSync");
export const statSync = lazy("statSync");
export const unlinkSync = lazy("unlinkSync");
export const writeFileSync = lazy("writeFileSync");
export const writeSync = lazy("writeSync");

/** node:fs's constants (open flags). */
export const fsConstants = (): NodeFs["constants"] => fs().constants;
