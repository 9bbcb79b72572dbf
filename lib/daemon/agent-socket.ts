// A browser session's own agent socket (`browse --agent-socket PATH URL`, the AWI-TTY document's
// --agent-socket): the daemon serves the same calls on PATH, each one without a `session` acting
// on that browser. The path may be in a shared directory (the document's /tmp/carbonyl.sock):
// then the directory must be root's and sticky (nobody else can replace what is in it), and what
// is at the path already must be a socket of ours that nobody answers on (left by a daemon that
// died) — anything else is refused, never removed. The socket is made under umask 077 (only its
// owner can connect) and removed when the session ends.
import { lstatSync } from "node:fs";
import * as v from "valibot";
import { TuiwrightError } from "../protocol/errors.ts";
import { compatAlias } from "../protocol/compat/index.ts";
import { isMethodName, METHODS } from "../protocol/methods.ts";
import { uid } from "../runtime/paths.ts";
import { RpcClient } from "../transport/rpc-client.ts";
import type { Dispatch } from "../transport/rpc-server.ts";
import { checkSocketPathLength } from "../transport/socket-path-length.ts";
import { checkSocketDir, checkSocketFile, removeIfPresent } from "../transport/socket-security.ts";

const fields = (schema: v.GenericSchema): string[] => Object.keys((schema as unknown as { entries?: object }).entries ?? {});

/** Makes `path` ready to listen on, or says why it cannot be. */
export async function claimAgentSocket(path: string): Promise<void> {
  if (!path.startsWith("/")) throw new TuiwrightError("usage", `--agent-socket must be an absolute path, not ${JSON.stringify(path)}`);
  checkSocketPathLength(path);
  const dir = path.slice(0, path.lastIndexOf("/")) || "/";
  let stat;
  try {
    stat = lstatSync(dir);
  } catch {
    throw new TuiwrightError("no-such-file", `cannot make the agent socket ${path}: no directory ${dir}`);
  }
  const sharedSticky = stat.isDirectory() && (stat.mode & 0o1000) !== 0 && stat.uid === 0 && (stat.mode & 0o022) !== 0;
  if (!sharedSticky) checkSocketDir(path, { create: false });
  checkSocketFile(path); // not a socket, or another user's: permission (77), left alone
  try {
    (await RpcClient.connect(path)).close();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ECONNREFUSED") return removeIfPresent(path); // ours, and nobody listens: stale
    if (code === "ENOENT") return;
    throw new TuiwrightError("io", `cannot check ${path}: ${(error as Error).message}`);
  }
  throw new TuiwrightError("usage", `the agent socket ${path} is in use (something answers on it)`, { hint: "pick another --agent-socket path, or stop what listens there" });
}

/** Calls on an agent socket: a call that names no session acts on `session`. */
export function pinnedDispatch(dispatch: Dispatch, session: string): Dispatch {
  return (method, params, context) => {
    if (typeof params !== "object" || params === null || Array.isArray(params) || "session" in params) return dispatch(method, params, context);
    const alias = compatAlias(method, params);
    const schema = alias ? alias.params : isMethodName(method) ? METHODS[method].params : null;
    const takesSession = schema !== null && fields(schema).includes("session");
    return dispatch(method, takesSession ? { ...params, session } : params, context);
  };
}

/** Whether `path` is still the socket this daemon made (not replaced): only then is it removed. */
export function ownSocket(path: string): boolean {
  try {
    const stat = lstatSync(path);
    return stat.isSocket() && stat.uid === uid();
  } catch {
    return false;
  }
}
