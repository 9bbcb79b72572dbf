// `spawn --shell`: which shell, its injected rc (with a fresh nonce), and where its transcript
// goes. Files live in the namespace's verified state directory: the rc file is written into a
// fresh 0700 directory made exclusively for this shell (mkdtemp), created exclusively itself,
// so nobody can swap it between our write and the shell reading it.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { ensureOwnedSubdir } from "../runtime/owned-dir.ts";
import type { OwnedPath } from "../runtime/paths.ts";
import { bashRc, fishRc, zshRc, type ShellKind } from "../shell/shell-rc.ts";

export type ShellLaunch = {
  argv: string[]; env: Record<string, string>; shell: { kind: ShellKind; nonce: string | null; transcriptDir: string; historyFlag?: string };
  /** The rc directory, removed again when the spawn fails. */
  rcDir?: string;
};

function pickShell(kind: ShellKind | "auto", env: Record<string, string>): ShellKind {
  if (kind !== "auto") return kind;
  const name = (env.SHELL ?? "").slice((env.SHELL ?? "").lastIndexOf("/") + 1);
  return name === "zsh" || name === "fish" ? name : "bash";
}

/** Writes a new file that must not exist yet (O_EXCL; never through a symlink). */
function writeNew(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600, flag: "wx" });
}

export function shellLaunch(kind: ShellKind | "auto", integration: boolean, env: Record<string, string>, state: OwnedPath, session: string): ShellLaunch {
  const shell = pickShell(kind, env);
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(".", "");
  // The transcript directory is made here under a fresh name (mkdtemp): nobody else can have made it.
  const transcriptDir = mkdtempSync(`${ensureOwnedSubdir(state, "transcripts", "state directory")}/${session}-${stamp}-`);
  mkdirSync(`${transcriptDir}/blocks`, { mode: 0o700 });
  if (!integration) return { argv: [shell, "-i"], env, shell: { kind: shell, nonce: null, transcriptDir } };
  const nonce = randomUUID().replace(/-/g, "").slice(0, 16);
  const dir = mkdtempSync(`${ensureOwnedSubdir(state, "shells", "state directory")}/${session}-${stamp}-`);
  // The worker creates this file when a --secret goes into the command line at the prompt; the
  // rc keeps that line out of the history file (shell-rc.ts). Named to the rc by environment.
  const historyFlag = `${dir}/secret-on-line`;
  const withFlag = { ...env, TUIWRIGHT_HISTORY_FLAG: historyFlag };
  if (shell === "bash") {
    writeNew(`${dir}/bashrc`, bashRc(nonce));
    // The rc passes each command line through this file (no fork, shell-rc.ts): made here 0600,
    // since the shell would create it with its umask's mode (0644), and the line may hold a secret.
    writeNew(`${dir}/command-line`, "");
    return { argv: ["bash", "--rcfile", `${dir}/bashrc`, "-i"], env: withFlag, shell: { kind: shell, nonce, transcriptDir, historyFlag }, rcDir: dir };
  }
  if (shell === "fish") {
    writeNew(`${dir}/integration.fish`, fishRc(nonce));
    return { argv: ["fish", "-i", "--init-command", `source ${dir}/integration.fish`], env: withFlag, shell: { kind: shell, nonce, transcriptDir, historyFlag }, rcDir: dir };
  }
  writeNew(`${dir}/.zshrc`, zshRc(nonce));
  return {
    argv: ["zsh", "-i"],
    env: { ...withFlag, ZDOTDIR: dir, TUIWRIGHT_USER_ZDOTDIR: env.ZDOTDIR ?? env.HOME ?? "" },
    shell: { kind: shell, nonce, transcriptDir, historyFlag },
    rcDir: dir,
  };
}
