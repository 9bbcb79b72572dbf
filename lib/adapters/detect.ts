// Which manifest fits the screen now. Identity (argv0 and argv, both when both are given) is
// checked against the session's command and against the terminal's foreground process, so vim
// started from bash is still vim; screen, title and alt-screen must hold when given. The
// highest confidence wins.
import type { CompiledManifest } from "./load-manifest.ts";

export type DetectContext = {
  argv: string[];
  /** The foreground process group leader's argv, if it is not the session's own program. */
  foreground: string[] | null;
  screenText: string;
  title: string;
  altScreen: boolean;
};

const base = (path: string) => path.slice(path.lastIndexOf("/") + 1);

function fits(manifest: CompiledManifest, context: DetectContext): boolean {
  return mayFit(manifest, context) && (!manifest.detect.screen || manifest.detect.screen.test(context.screenText));
}

/** Whether the manifest fits, the screen's text left out (it is the costly part to read): false
 * means it cannot fit whatever the screen shows. */
export function mayFit(manifest: CompiledManifest, context: Omit<DetectContext, "screenText">): boolean {
  const { detect } = manifest;
  const commands = [context.argv, ...(context.foreground ? [context.foreground] : [])];
  // Exclusions name whole arguments ("-c", "--version"); argv words match inside arguments.
  if (detect.exclude.some((word) => commands.some((argv) => argv.slice(1).includes(word)))) return false;
  if (detect.argv0.length > 0 || detect.argv.length > 0) {
    const identifies = (argv: string[]) =>
      argv.length > 0 &&
      (detect.argv0.length === 0 || detect.argv0.includes(base(argv[0]!))) &&
      (detect.argv.length === 0 || detect.argv.some((word) => argv.slice(1).some((arg) => arg.includes(word))));
    if (!commands.some(identifies)) return false;
  }
  if (detect.title && !detect.title.test(context.title)) return false;
  if (detect.altScreen !== undefined && detect.altScreen !== context.altScreen) return false;
  return true;
}

export function detectManifest(manifests: CompiledManifest[], context: DetectContext): CompiledManifest | null {
  let best: CompiledManifest | null = null;
  for (const manifest of manifests) {
    if (!fits(manifest, context)) continue;
    if (!best || manifest.detect.confidence > best.detect.confidence) best = manifest;
  }
  return best;
}
