// `tuiwright skill --install DIR`: SKILL.md into DIR/tuiwright/, the Agent Skills layout (one
// directory per skill, named after the frontmatter's `name`), so an agent that scans DIR finds it.
// DIR/tuiwright must be ours (created here, or one we made before): a subdirectory another user
// made — in a shared skills directory — is refused, never written into. The file goes through
// the one safe writer (never through a symlink, replacing only our own earlier SKILL.md).
import { lstatSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";
import { writeOutputFile } from "../runtime/output-file.ts";
import { uid } from "../runtime/paths.ts";

export function installSkill(dir: string, text: string): string {
  const base = resolve(dir);
  let stat;
  try {
    stat = lstatSync(base);
  } catch {
    throw new TuiwrightError("no-such-file", `no directory ${JSON.stringify(base)}`, { hint: `create it first (mkdir -p ${base}) or pass the skills directory your agent reads` });
  }
  if (!stat.isDirectory()) throw new TuiwrightError("usage", `${JSON.stringify(base)} is not a directory`, { hint: "pass the skills directory, e.g. ~/.claude/skills" });
  const skillDir = join(base, "tuiwright");
  try {
    mkdirSync(skillDir, { mode: 0o755 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new TuiwrightError("io", `cannot create ${JSON.stringify(skillDir)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { hint: "check the directory's permissions" });
  }
  const made = lstatSync(skillDir);
  if (made.isSymbolicLink()) throw new TuiwrightError("permission", `${JSON.stringify(skillDir)} is a symlink; refusing to write through it`, { hint: "remove it and run again" });
  if (!made.isDirectory()) throw new TuiwrightError("usage", `${JSON.stringify(skillDir)} exists and is not a directory`, { hint: "remove it and run again" });
  if (made.uid !== uid()) {
    throw new TuiwrightError("permission", `refusing to write into ${JSON.stringify(skillDir)}: it belongs to uid ${made.uid}, not ${uid()} (another user created it)`, { hint: "remove it (or ask its owner to), then run again" });
  }
  if ((made.mode & 0o022) !== 0) {
    throw new TuiwrightError("permission", `refusing to write into ${JSON.stringify(skillDir)}: mode ${(made.mode & 0o777).toString(8)} lets others write to it`, { hint: `chmod go-w ${skillDir}` });
  }
  const file = join(skillDir, "SKILL.md");
  // 0644: documentation for any agent on the machine to read, as the rest of the skills directory.
  writeOutputFile(file, text, { mode: 0o644 });
  return file;
}
