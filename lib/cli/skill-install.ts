// `tuiwright skill --install DIR`: SKILL.md into DIR/tuiwright/, the Agent Skills layout (one
// directory per skill, named after the frontmatter's `name`), so an agent that scans DIR finds it.
// Written to a fresh temporary file and renamed over the old one: never through a symlink.
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";

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
  mkdirSync(skillDir, { recursive: true, mode: 0o755 });
  if (lstatSync(skillDir).isSymbolicLink()) throw new TuiwrightError("permission", `${JSON.stringify(skillDir)} is a symlink; refusing to write through it`, { hint: "remove it and run again" });
  const file = join(skillDir, "SKILL.md");
  const temp = join(skillDir, `.SKILL.md.${process.pid}`);
  try {
    writeFileSync(temp, text, { flag: "wx", mode: 0o644 });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new TuiwrightError("io", `could not write ${JSON.stringify(file)}: ${(error as Error).message}`, { hint: "check the directory's permissions" });
  }
  return file;
}
