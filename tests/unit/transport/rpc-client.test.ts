// The Bun client's socket (RpcClient, under lib/client/index.ts, the CLI and MCP): a call made
// after the daemon hung up must fail at once, not wait forever on a write that went nowhere.
import { afterEach, expect, test } from "bun:test";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";
import { RpcClient } from "../../../lib/transport/rpc-client.ts";
import { cleanUp, FakeDaemon, reply } from "../client/fake-daemon.ts";

afterEach(cleanUp);

const errorName = (error: unknown) => (error instanceof TuiwrightError ? error.errorName : String(error));

test("calls in flight and calls after the daemon hung up fail with daemon-unavailable", async () => {
  const daemon = await FakeDaemon.start();
  const client = await RpcClient.connect(daemon.path);
  const answered = client.call("ping", {});
  const [request] = await daemon.received(1);
  daemon.send(reply(request!.id, { pong: true }));
  expect(await answered).toEqual({ pong: true });
  const inFlight = client.call("list", {}).catch(errorName);
  await daemon.received(2);
  daemon.socket!.destroy();
  expect(await inFlight).toBe("daemon-unavailable");
  await client.closed;
  expect(await client.call("ping", {}).catch(errorName)).toBe("daemon-unavailable");
});

test("a call after close() fails with daemon-unavailable", async () => {
  const daemon = await FakeDaemon.start();
  const client = await RpcClient.connect(daemon.path);
  client.close();
  await client.closed;
  expect(await client.call("ping", {}).catch(errorName)).toBe("daemon-unavailable");
});
