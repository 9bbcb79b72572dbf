// The TypeScript client: `import { connect, expectSession } from "tuiwright"`. Typed from the
// method table; sessions clean up with `await using`; test helpers wait event-driven.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TuiwrightError } from "../protocol/errors.ts";
import type { MethodName, ParamsInput, Result } from "../protocol/methods.ts";
import { defaultSocketPath, namespaceFromEnv } from "../runtime/paths.ts";
import { isCompiled, version } from "../runtime/self.ts";
import { connectDaemon } from "../transport/daemon-connection.ts";
import { Client } from "./session-api.ts";
import { setting } from "../runtime/settings.ts";

export { TuiwrightError };
export { Client, expectSession, Session } from "./session-api.ts";
export type { MethodName, ParamsInput, Result };

export type ConnectOptions = { namespace?: string; socketPath?: string; autoStart?: boolean };

const majorMinor = (v: string) => v.split("+")[0]!.split(".").slice(0, 2).join(".");

/** The daemon the library starts is the binary's, so the CLI (which refuses a daemon of another
 * build) shares it: $TUIWRIGHT_BIN, else dist/tuiwright built from these sources, else
 * `tuiwright` on PATH; only without any binary does it run the daemon from source (0.1.0+dev). */
function daemonCommand(): string[] | undefined {
  const bin = setting("bin");
  if (bin) return [bin];
  if (isCompiled()) return undefined;
  const built = fileURLToPath(new URL("../../dist/tuiwright", import.meta.url));
  if (existsSync(built)) return [built];
  const onPath = (process.env.PATH ?? "").split(":").find((dir) => dir.startsWith("/") && existsSync(`${dir}/tuiwright`));
  return onPath ? [`${onPath}/tuiwright`] : undefined;
}

/** Connects to the daemon of the namespace ($TUIWRIGHT_NS / $TUIWRIGHT_SOCKET), starting it if needed. */
export async function connect(options: ConnectOptions = {}): Promise<Client> {
  const namespace = options.namespace ?? namespaceFromEnv(undefined);
  const socketPath = options.socketPath ?? defaultSocketPath(namespace);
  const rpc = await connectDaemon({ namespace, socketPath }, { autoStart: options.autoStart ?? true, checkVersion: false, daemonCommand: daemonCommand() });
  const pong = (await rpc.call("ping")) as { version: string };
  // The library may run from source against a daemon from the binary: same protocol version
  // (major.minor) is what matters.
  if (majorMinor(pong.version) !== majorMinor(version())) {
    rpc.close();
    throw new TuiwrightError("version-mismatch", `the daemon runs tuiwright ${pong.version}; this library is ${version()}`, { hint: "tuiwright daemon stop" });
  }
  return new Client(rpc, pong.version);
}
