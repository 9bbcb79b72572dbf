// The manifests in force: the built-ins, overridden by name by the user's own files. User
// files are re-read whenever the directory listing or a file's mtime/size changes (checked on
// use: a few stat calls), so an edited manifest applies without restarting anything. A broken
// user file is reported, and its built-in namesake (if any) stays in force.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { asTuiwrightError } from "../protocol/errors.ts";
import { userAdaptersDir } from "../runtime/paths.ts";
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
  #signature = "\0";
  #entries: CatalogEntry[] = [];
  #errors: CatalogError[] = [];
  #generation = 0;

  constructor(dir = userAdaptersDir()) {
    this.#dir = dir;
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

  #userFiles(): { path: string; stamp: string }[] {
    let names: string[];
    try {
      names = readdirSync(this.#dir).filter((name) => name.endsWith(".toml")).sort();
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      const path = `${this.#dir}/${name}`;
      try {
        const stat = statSync(path);
        return [{ path, stamp: `${name}:${stat.mtimeMs}:${stat.size}` }];
      } catch {
        return [];
      }
    });
  }

  #refresh(): void {
    const files = this.#userFiles();
    const signature = files.map((f) => f.stamp).join("|");
    if (signature === this.#signature) return;
    this.#signature = signature;
    const byName = new Map<string, CatalogEntry>(loadBuiltins().map((manifest) => [manifest.name, { manifest, origin: "builtin" }]));
    const errors: CatalogError[] = [];
    for (const { path } of files) {
      try {
        const manifest = loadManifest(readFileSync(path, "utf8"), path);
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
