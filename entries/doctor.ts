// Entry point of `tuiwright doctor` (its own bundle: it loads the Carbonyl finder and TOML): is this machine ready? Socket directory, daemon and versions, state
// directory, shells, Carbonyl, user manifests and the retention config — each check says what
// it found and, when something is wrong, the command that fixes it. Exit 1 when a check fails
// (warnings are for optional parts: zsh, fish, Carbonyl).
import { accessSync, constants, existsSync, lstatSync, readdirSync } from "node:fs";
import { delimiter } from "node:path";
import { findCarbonyl, installCommand } from "../lib/browser/find-carbonyl.ts";
import { asTuiwrightError } from "../lib/protocol/errors.ts";
import { stateDir, uid, userAdaptersDir } from "../lib/runtime/paths.ts";
import { version } from "../lib/runtime/self.ts";
import { printOut } from "../lib/runtime/stdio.ts";
import { checkSocketDir } from "../lib/transport/socket-security.ts";
import { connectDaemon } from "../lib/transport/daemon-connection.ts";
import { retentionPolicy } from "../lib/record/retention-config.ts";
import { configFilePath } from "../lib/runtime/config-file.ts";
import { parseFlags } from "../lib/cli/flags.ts";
import { DOCTOR_HELP } from "../lib/cli/command-help.ts";
import { daemonTarget, type Globals, usage } from "../lib/cli/invocation.ts";
import { settingsInForce } from "../lib/runtime/settings.ts";


type Status = "ok" | "warn" | "fail";
type Check = { name: string; status: Status; detail: string; fix?: string };

function onPath(program: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir.startsWith("/")) continue; // never the current directory
    const path = `${dir}/${program}`;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch { /* not here */ }
  }
  return null;
}

function socketDirCheck(socketPath: string): Check {
  const dir = socketPath.slice(0, socketPath.lastIndexOf("/")) || "/";
  try {
    checkSocketDir(socketPath, { create: false });
    return existsSync(dir)
      ? { name: "socket directory", status: "ok", detail: `${dir} (yours, mode 0700)` }
      : { name: "socket directory", status: "ok", detail: `${dir} (created with mode 0700 when the daemon starts)` };
  } catch (error) {
    return { name: "socket directory", status: "fail", detail: asTuiwrightError(error).message, fix: `remove or fix it (rm -rf ${dir} if it is yours), or set TUIWRIGHT_SOCKET to a path in a directory only you can write` };
  }
}

async function daemonCheck(globals: Globals): Promise<Check[]> {
  const target = daemonTarget(globals);
  let rpc;
  try {
    rpc = await connectDaemon(target, { autoStart: false });
  } catch (error) {
    const failure = asTuiwrightError(error);
    if (failure.errorName === "daemon-unavailable") {
      return [{ name: "daemon", status: "ok", detail: `not running for namespace ${target.namespace} (the first spawn starts it)` }];
    }
    if (failure.errorName === "version-mismatch") {
      return [{ name: "daemon", status: "fail", detail: failure.message, fix: "tuiwright daemon stop (its sessions end; the next command starts this version's daemon)" }];
    }
    return [{ name: "daemon", status: "fail", detail: failure.message, fix: failure.hint }];
  }
  try {
    const status = (await rpc.call("daemon.status", {})) as { pid: number; version: string; sessions?: unknown };
    const checks: Check[] = [{ name: "daemon", status: "ok", detail: `running, pid ${status.pid}, version ${status.version} (same as this CLI)` }];
    const adapters = (await rpc.call("adapter.list", {})) as { errors: { file: string; message: string }[] };
    for (const failed of adapters.errors) {
      checks.push({ name: "manifest", status: "fail", detail: `${failed.file}: ${failed.message}`, fix: `tuiwright adapter check ${failed.file}` });
    }
    return checks;
  } finally {
    rpc.close();
  }
}

function stateCheck(namespace: string): Check {
  const dir = stateDir(namespace);
  if (!existsSync(dir)) return { name: "state directory", status: "ok", detail: `${dir} (created with mode 0700 on first use)` };
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) return { name: "state directory", status: "fail", detail: `${dir} is not a directory`, fix: `remove ${dir}` };
  if (stat.uid !== uid()) return { name: "state directory", status: "fail", detail: `${dir} belongs to uid ${stat.uid}`, fix: "set XDG_STATE_HOME to a directory of yours" };
  if ((stat.mode & 0o077) !== 0) return { name: "state directory", status: "warn", detail: `${dir} has mode ${(stat.mode & 0o777).toString(8)}: others can read your recordings`, fix: `chmod 700 ${dir}` };
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return { name: "state directory", status: "fail", detail: `${dir} is not writable`, fix: `chmod u+w ${dir}` };
  }
  const casts = existsSync(`${dir}/casts`) ? readdirSync(`${dir}/casts`).filter((n) => n.endsWith(".cast")).length : 0;
  return { name: "state directory", status: "ok", detail: `${dir} (${casts} recording(s))` };
}

function shellChecks(): Check[] {
  return (["bash", "zsh", "fish"] as const).map((shell) => {
    const path = onPath(shell);
    if (path) return { name: `shell ${shell}`, status: "ok", detail: path };
    return shell === "bash"
      ? { name: "shell bash", status: "fail", detail: "bash is not on PATH: spawn --shell needs it", fix: "install bash (apt-get install bash), or put it on PATH" }
      : { name: `shell ${shell}`, status: "warn", detail: `${shell} is not on PATH (only spawn --shell ${shell} needs it)`, fix: `apt-get install ${shell} (optional)` };
  });
}

/** Carbonyl is optional unless the user asked for browser sessions (`--browser`). */
function carbonylCheck(wanted: boolean): Check {
  try {
    return { name: "carbonyl", status: "ok", detail: findCarbonyl(process.env) };
  } catch (error) {
    const message = asTuiwrightError(error).message;
    return wanted
      ? { name: "carbonyl", status: "fail", detail: `${message} (browser sessions need it)`, fix: installCommand() }
      : { name: "carbonyl", status: "warn", detail: `${message} (only browser sessions need it; doctor --browser counts it as a problem)`, fix: installCommand() };
  }
}

function adaptersCheck(): Check {
  const dir = userAdaptersDir();
  if (!existsSync(dir)) return { name: "user manifests", status: "ok", detail: `${dir} (none; put *.toml manifests there)` };
  try {
    const manifests = readdirSync(dir).filter((n) => n.endsWith(".toml"));
    return { name: "user manifests", status: "ok", detail: `${dir} (${manifests.length} manifest(s); the daemon reports any that fail to load)` };
  } catch (error) {
    return { name: "user manifests", status: "fail", detail: `cannot read ${dir}: ${(error as Error).message}`, fix: `chmod u+rx ${dir}` };
  }
}

function configCheck(): Check {
  try {
    const policy = retentionPolicy(configFilePath());
    const file = configFilePath();
    return { name: "retention", status: "ok", detail: `keep ${policy.keep || "all"}, keep-days ${policy.keepDays || "no limit"}, max-cast-bytes ${policy.maxCastBytes || "no limit"}${existsSync(file) ? ` (from ${file} or the environment)` : ""}` };
  } catch (error) {
    const failure = asTuiwrightError(error);
    return { name: "retention", status: "fail", detail: failure.message, fix: failure.hint };
  }
}

/** The settings table with the values in force: every user setting, and test or internal ones
 * only when set (docs/settings.md has them all). A value that does not parse is a failure. */
function settingsReport(): { checks: Check[]; settings: { name: string; value: string | null; default: string; audience: string }[] } {
  const rows = settingsInForce().filter((row) => row.setting.audience === "user" || row.value !== undefined);
  const checks = rows.flatMap((row): Check[] => (row.problem ? [{ name: "setting", status: "fail", detail: row.problem, fix: `unset ${row.setting.env}, or see docs/settings.md for its values` }] : []));
  return { checks, settings: rows.map((row) => ({ name: row.setting.env, value: row.value ?? null, default: row.setting.defaultText, audience: row.setting.audience })) };
}

function settingsLines(settings: ReturnType<typeof settingsReport>["settings"]): string[] {
  const width = Math.max(...settings.map((s) => s.name.length));
  return ["settings (docs/settings.md):", ...settings.map((s) => `  ${s.name.padEnd(width)}  ${s.value === null ? `unset: ${s.default}` : `= ${JSON.stringify(s.value)}`}${s.audience === "user" ? "" : ` (${s.audience})`}`)];
}

export async function runDoctor(args: string[], globals: Globals): Promise<number> {
  const parsed = parseFlags(args, DOCTOR_HELP.flags, "doctor");
  if (parsed.positionals.length > 0 || parsed.rest) throw usage(`doctor takes no arguments; got ${JSON.stringify(parsed.positionals[0] ?? "--")}`, "run `tuiwright help doctor`");
  const target = daemonTarget(globals);
  const socket = socketDirCheck(target.socketPath);
  const checks: Check[] = [
    { name: "tuiwright", status: "ok", detail: `${version()} (${process.execPath})` },
    socket,
    ...(socket.status === "fail" ? [{ name: "daemon", status: "warn", detail: "not checked: the socket directory is refused (see above)" } as Check] : await daemonCheck(globals)),
    stateCheck(target.namespace),
    ...shellChecks(),
    carbonylCheck(parsed.flags.has("--browser")),
    adaptersCheck(),
    configCheck(),
  ];
  const settings = settingsReport();
  checks.push(...settings.checks);
  const ok = checks.every((c) => c.status !== "fail");
  if (globals.mode === "json") {
    await printOut(JSON.stringify({ ok, checks, settings: settings.settings }));
  } else {
    const width = Math.max(...checks.map((c) => c.name.length));
    const lines = checks.map((c) => `${c.status.padEnd(4)}  ${c.name.padEnd(width)}  ${c.detail}${c.fix ? `\n${" ".repeat(width + 8)}fix: ${c.fix}` : ""}`);
    lines.push("", ...settingsLines(settings.settings), "");
    const warnings = checks.filter((c) => c.status === "warn").length;
    lines.push(ok ? `no problems found${warnings ? `; ${warnings} warning(s) above, for optional parts` : ""}` : `${checks.filter((c) => c.status === "fail").length} problem(s): see the fixes above`);
    await printOut(lines.join("\n"));
  }
  return ok ? 0 : 1;
}
