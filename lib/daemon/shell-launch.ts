// `spawn --shell`: which shell, its injected rc (with a fresh nonce), and where its transcript
// goes. Files live in the namespace's state directory, readable by the user only.
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { bashRc, fishRc, zshRc, type ShellKind } from "../shell/shell-rc.ts";

export type ShellLaunch = { argv: string[]; env: Record<string, string>; shell: { kind: ShellKind; nonce: string | null; transcriptDir: string } };

function pickShell(kind: ShellKind | "auto", env: Record<string, string>): ShellKind {
  if (kind !== "auto") return kind;
  const name = (env.SHELL ?? "").slice((env.SHELL ?? "").lastIndexOf("/") + 1);
  return name === "zsh" || name === "fish" ? name : "bash";
}

export function shellLaunch(kind: ShellKind | "auto", integration: boolean, env: Record<string, string>, state: string, session: string): ShellLaunch {
  const shell = pickShell(kind, env);
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(".", "");
  const transcriptDir = `${state}/transcripts/${session}-${stamp}`;
  if (!integration) return { argv: [shell, "-i"], env, shell: { kind: shell, nonce: null, transcriptDir } };
  const nonce = randomUUID().replace(/-/g, "").slice(0, 16);
  const dir = `${state}/shells/${session}-${stamp}`;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (shell === "bash") {
    writeFileSync(`${dir}/bashrc`, bashRc(nonce), { mode: 0o600 });
    return { argv: ["bash", "--rcfile", `${dir}/bashrc`, "-i"], env, shell: { kind: shell, nonce, transcriptDir } };
  }
  if (shell === "fish") {
    writeFileSync(`${dir}/integration.fish`, fishRc(nonce), { mode: 0o600 });
    return { argv: ["fish", "-i", "--init-command", `source ${dir}/integration.fish`], env, shell: { kind: shell, nonce, transcriptDir } };
  }
  writeFileSync(`${dir}/.zshrc`, zshRc(nonce), { mode: 0o600 });
  return {
    argv: ["zsh", "-i"],
    env: { ...env, ZDOTDIR: dir, TUIWRIGHT_USER_ZDOTDIR: env.ZDOTDIR ?? env.HOME ?? "" },
    shell: { kind: shell, nonce, transcriptDir },
  };
}
