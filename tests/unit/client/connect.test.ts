// The npm package's connect(): it asks the tuiwright executable (`--json daemon start`, or
// `status` without autoStart) for the daemon, then talks to the socket the executable names.
// The executable here is a small shell script that prints what the real one prints.
import { afterEach, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { connect, TuiwrightError } from "../../../lib/client/portable.ts";
import { SETTINGS } from "../../../lib/runtime/settings.ts";
import { cleanUp, FakeDaemon, onCleanUp, tempDir } from "./fake-daemon.ts";

afterEach(cleanUp);

/** A stand-in executable: records its arguments and $TUIWRIGHT_SOCKET, then runs `body`. */
function fakeBinary(body: string): { path: string; args(): string[]; socketVariable(): string } {
  const dir = tempDir();
  const path = `${dir}/tuiwright`;
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" > '${dir}/args'\nprintf '%s' "\${TUIWRIGHT_SOCKET-unset}" > '${dir}/socket'\n${body}\n`);
  chmodSync(path, 0o755);
  return {
    path,
    args: () => readFileSync(`${dir}/args`, "utf8").trimEnd().split("\n"),
    socketVariable: () => readFileSync(`${dir}/socket`, "utf8"),
  };
}

/** The status `daemon start --json` prints, for a daemon on `socket`. */
const status = (socket: string) => `printf '%s\\n' '${JSON.stringify({ pid: 4321, version: "0.9.1+fake", namespace: "default", socket, sessions: 0 })}'`;

test("connect runs `--json daemon start` and returns a client of the daemon on the socket it names", async () => {
  const daemon = await FakeDaemon.start();
  daemon.answer = (request) => ({ method: request.method, pid: 4321 });
  const binary = fakeBinary(status(daemon.path));
  const client = await connect({ binary: binary.path });
  onCleanUp(() => client.close());
  expect(binary.args()).toEqual(["--json", "daemon", "start"]);
  expect(client.version).toBe("0.9.1+fake");
  expect(await client.call("ping", {})).toEqual({ method: "ping", pid: 4321 } as never);
});

test("namespace, socketPath and autoStart: false reach the executable (--ns, TUIWRIGHT_SOCKET, daemon status)", async () => {
  const daemon = await FakeDaemon.start();
  daemon.answer = () => "pong";
  // The script reports the daemon on the socket it was told of, as the real one does.
  const binary = fakeBinary(`printf '{"pid":1,"version":"0.9.1","namespace":"ci","socket":"%s"}\\n' "$TUIWRIGHT_SOCKET"`);
  const client = await connect({ binary: binary.path, namespace: "ci", socketPath: daemon.path, autoStart: false });
  onCleanUp(() => client.close());
  expect(binary.args()).toEqual(["--json", "--ns", "ci", "daemon", "status"]);
  expect(binary.socketVariable()).toBe(daemon.path);
  expect(await client.call("ping", {})).toBe("pong" as never);
});

test("the executable's JSON error becomes a TuiwrightError of the same name and message", async () => {
  const error = { code: -32003, message: "no daemon is running in namespace ci", data: { name: "daemon-unavailable", hint: "start it with `tuiwright daemon start`" } };
  const binary = fakeBinary(`printf '%s\\n' '${JSON.stringify({ error })}'\nexit 69`);
  const failure = await connect({ binary: binary.path, autoStart: false }).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(TuiwrightError);
  expect(failure).toMatchObject({ errorName: "daemon-unavailable", message: "no daemon is running in namespace ci", exitCode: 69 });
});

test("an executable that fails without JSON is daemon-unavailable, with what it said on stderr", async () => {
  const binary = fakeBinary("echo 'cannot create /run/user/0/tuiwright: permission denied' >&2\nexit 3");
  const failure = await connect({ binary: binary.path }).catch((e: unknown) => e);
  expect(failure).toMatchObject({ errorName: "daemon-unavailable" });
  expect((failure as Error).message).toContain("cannot create /run/user/0/tuiwright: permission denied");
});

test("a missing executable is no-such-program, naming it and TUIWRIGHT_BIN", async () => {
  const missing = `${tempDir()}/no/tuiwright`;
  const failure = await connect({ binary: missing }).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(TuiwrightError);
  expect(failure).toMatchObject({ errorName: "no-such-program", exitCode: 66 });
  expect((failure as TuiwrightError).message).toContain(missing);
  expect((failure as TuiwrightError).hint).toContain("TUIWRIGHT_BIN");
});

test("a status naming a socket no daemon listens on is daemon-unavailable", async () => {
  const binary = fakeBinary(status(`${tempDir()}/gone.sock`));
  expect(await connect({ binary: binary.path }).catch((e: TuiwrightError) => e.errorName)).toBe("daemon-unavailable");
});

test("without a binary option, connect runs the executable TUIWRIGHT_BIN names", async () => {
  const daemon = await FakeDaemon.start();
  daemon.answer = () => "pong";
  const binary = fakeBinary(status(daemon.path));
  const saved = process.env[SETTINGS.bin.env];
  onCleanUp(() => {
    if (saved === undefined) delete process.env[SETTINGS.bin.env];
    else process.env[SETTINGS.bin.env] = saved;
  });
  process.env[SETTINGS.bin.env] = binary.path;
  const client = await connect();
  onCleanUp(() => client.close());
  expect(binary.args()).toEqual(["--json", "daemon", "start"]);
  expect(await client.call("ping", {})).toBe("pong" as never);
});
