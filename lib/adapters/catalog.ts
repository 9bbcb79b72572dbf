// The manifests in force: the built-ins, overridden by name by the user's own files. User
// files are re-read whenever the directory listing or a file's mtime/size changes (checked on
// use: a few stat calls), so an edited manifest applies without restarting anything. A broken
// user file is reported, and its built-in namesake (if any) stays in force. The directory must
// be ours alone (a manifest's operations type into programs), and every file is read through
// readUserManifest (regular files only, size-capped).
import { readdirSync, statSync } from "node:fs";
import { asTuiwrightError } from "../protocol/errors.ts";
import { ownedDirExists } from "../runtime/owned-dir.ts";
import { userAdaptersLocation, type OwnedPath } from "../runtime/paths.ts";
import { readUserManifest } from "./read-user-manifest.ts";
import { BUILTIN_MANIFESTS } from "./builtins.ts";
import { loadManifest, type CompiledManifest } from "./load-manifest.ts";

export type CatalogEntry = { manifest: CompiledManifest; origin: "builtin" | "user" };
export type CatalogError = { file: string; message: string };

let builtins: CompiledManifest[] | null = null;

function loadBuiltins(): CompiledManifest[] {
  builtins ??= BUILTIN_MANIFESTS.map(({ file, source }) => loadManifest(source, file));
  return builtins;
}

export class ManifestCatalog {
  readonly #dir: string;
  readonly #location: OwnedPath | null;
  #locationProblem: string | null = null;
  #signature = "\0";
  #entries: CatalogEntry[] = [];
  #errors: CatalogError[] = [];
  #generation = 0;

  /** `dir` given: a directory chosen by the caller (tests, `adapter check`), read as is. */
  constructor(dir?: string) {
    let location: OwnedPath | null = null;
    try {
      location = dir === undefined ? userAdaptersLocation() : null;
    } catch (error) {
      // No home to find it in: built-ins only, and the reason is listed with the errors.
      this.#locationProblem = asTuiwrightError(error).message;
    }
    this.#location = location;
    this.#dir = dir ?? location?.path ?? "(no adapters directory)";
  }

  get dir(): string {
    return this.#dir;
  }

  entries(): CatalogEntry[] {
    this.#refresh();
    return this.#entries;
  }

  manifests(): CompiledManifest[] {
    return this.entries().map((entry) => entry.manifest);
  }

  errors(): CatalogError[] {
    this.#refresh();
    return this.#errors;
  }

  /** Bumped whenever the set of manifests changes (after re-checking the user files). */
  generation(): number {
    this.#refresh();
    return this.#generation;
  }

  #userFiles(): { path: string; stamp: string; problem?: string }[] {
    if (this.#locationProblem) return [{ path: this.#dir, stamp: "!", problem: this.#locationProblem }];
    let names: string[];
    try {
      names = readdirSync(this.#dir).filter((name) => name.endsWith(".toml")).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return [];
      const problem = asTuiwrightError(error).message;
      return [{ path: this.#dir, stamp: `!${problem}`, problem }];
    }
    return names.map((name) => {
      const path = `${this.#dir}/${name}`;
      try {
        // stat never blocks, even on a FIFO; a loop or dangling link is reported when read.
        const stat = statSync(path);
        return { path, stamp: `${name}:${stat.mtimeMs}:${stat.size}:${stat.mode}` };
      } catch (error) {
        return { path, stamp: `${name}:!${(error as NodeJS.ErrnoException).code}` };
      }
    });
  }

  /** True when the files may be read; else the problem (or null: nothing there to read). */
  #trustedDirectory(anyFiles: boolean): true | CatalogError | null {
    if (!this.#location || !anyFiles) return true;
    try {
      return ownedDirExists(this.#location, "adapters directory") ? true : null;
    } catch (error) {
      return { file: this.#dir, message: asTuiwrightError(error).message };
    }
  }

  #refresh(): void {
    const files = this.#userFiles();
    const signature = files.map((f) => f.stamp).join("|");
    if (signature === this.#signature) return;
    this.#signature = signature;
    const byName = new Map<string, CatalogEntry>(loadBuiltins().map((manifest) => [manifest.name, { manifest, origin: "builtin" }]));
    const errors: CatalogError[] = [];
    // The directory is verified when its listing changed, before anything in it is read: not on
    // every check (an outline asks for the generation on each screen change).
    const trusted = this.#trustedDirectory(files.length > 0);
    if (trusted !== true && trusted !== null) errors.push(trusted);
    for (const { path, problem } of trusted === true ? files : []) {
      if (problem) {
        errors.push({ file: path, message: problem });
        continue;
      }
      try {
        const manifest = loadManifest(readUserManifest(path), path);
        byName.set(manifest.name, { manifest, origin: "user" });
      } catch (error) {
        errors.push({ file: path, message: asTuiwrightError(error).message });
      }
    }
    this.#entries = [...byName.values()];
    this.#errors = errors;
    this.#generation++;
  }
}
