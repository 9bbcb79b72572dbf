// The attacker of tests/security/: another real local user (uid ≠ ours), created with useradd
// when the tests run as root (CI does), who plants files, symlinks, FIFOs and folders in a
// shared directory like /tmp before the victim — us, root — runs tuiwright. Without root no
// second user can be used: each file says so and skips.
import { chmodSync, mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const isRoot = process.getuid?.() === 0;
export const SKIP_REASON = "switching to a second user needs root (CI runs as root)";

export type User = { name: string; uid: number; gid: number };

const ATTACKER = "twtest-attacker";

function passwd(name: string): User | null {
  const line = readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(":");
  return { name, uid: Number(uid), gid: Number(gid) };
}

/** The second user, made if missing (tests/e2e/trusted-dirs.test.ts uses the same one). */
export function attacker(): User {
  if (!passwd(ATTACKER)) {
    const made = Bun.spawnSync(["useradd", "--create-home", "--shell", "/bin/sh", ATTACKER]);
    if (made.exitCode !== 0 && !passwd(ATTACKER)) throw new Error(`useradd ${ATTACKER}: ${made.stderr.toString()}`);
  }
  return passwd(ATTACKER)!;
}

/** Runs a shell script as the attacker (their uid and gid, no other groups, umask 000 as a
 * careless or hostile user would have); throws with its output if it fails. */
export function asAttacker(script: string): string {
  const user = attacker();
  const ran = Bun.spawnSync(["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "sh", "-c", `umask 000; ${script}`], {
    env: { PATH: "/usr/bin:/bin" }, cwd: "/", stdout: "pipe", stderr: "pipe",
  });
  if (ran.exitCode !== 0) throw new Error(`as ${user.name}: ${script}\n${ran.stdout}${ran.stderr}`);
  return ran.stdout.toString();
}

/** A directory like /tmp: world-writable and sticky, owned by root. */
export function sharedDir(prefix = "tw-sec-"): string {
  const dir = mkdtempSync(join("/tmp", prefix));
  chmodSync(dir, 0o1777);
  return dir;
}

export type Run = { code: number; stdout: string; stderr: string; hung: boolean };

/** Runs argv and gives up after `withinMs` (killing it): a command that blocks on a FIFO
 * comes back as `hung` instead of hanging the test. */
export async function runBounded(argv: string[], env: Record<string, string>, withinMs = 20_000, cwd?: string): Promise<Run> {
  const proc = Bun.spawn(argv, { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let hung = false;
  const timer = setTimeout(() => { hung = true; proc.kill("SIGKILL"); }, withinMs);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr, hung };
}
