// Who may talk to `tuiwright serve --http` (lib/http/guard.ts): the bearer token, a Host that is
// our own address (DNS rebinding), and an Origin, when a browser sends one, that is ours too.
// Each refusal is JSON saying why, with the status a client can act on.
import { expect, test } from "bun:test";
import { checkRequest, makeGuard } from "../../../lib/http/guard.ts";

const TOKEN = "s3cret-token";
const request = (headers: Record<string, string>) => new Request("http://127.0.0.1:8787/mcp", { method: "POST", headers });
const ok = { host: "127.0.0.1:8787", authorization: `Bearer ${TOKEN}` };

async function refused(response: Response | null): Promise<{ status: number; message: string; authenticate: string | null }> {
  expect(response).not.toBeNull();
  const body = (await response!.json()) as { error: { status: number; message: string } };
  expect(body.error.status).toBe(response!.status);
  return { status: response!.status, message: body.error.message, authenticate: response!.headers.get("www-authenticate") };
}

test("the right token on our own address passes, under each loopback name", () => {
  const guard = makeGuard(TOKEN, "127.0.0.1", 8787, false);
  for (const host of ["127.0.0.1:8787", "localhost:8787", "[::1]:8787", "LOCALHOST:8787"]) {
    expect(checkRequest(guard, request({ ...ok, host }))).toBeNull();
  }
});

test("a missing or wrong token is 401 with a Bearer challenge, saying which", async () => {
  const guard = makeGuard(TOKEN, "127.0.0.1", 8787, false);
  expect(await refused(checkRequest(guard, request({ host: ok.host })))).toEqual({
    status: 401, message: "missing bearer token: send Authorization: Bearer <token printed at start>", authenticate: 'Bearer realm="tuiwright"',
  });
  expect((await refused(checkRequest(guard, request({ host: ok.host, authorization: "Bearer s3cret-tokem" })))).message).toBe("wrong bearer token");
  // A prefix of the token, or the token without the scheme, is as wrong as any other.
  expect((await refused(checkRequest(guard, request({ host: ok.host, authorization: "Bearer s3cret" })))).status).toBe(401);
  expect((await refused(checkRequest(guard, request({ host: ok.host, authorization: TOKEN })))).status).toBe(401);
});

test("a foreign Host is 403 naming it and the address to use, even with the token (DNS rebinding)", async () => {
  const guard = makeGuard(TOKEN, "127.0.0.1", 8787, false);
  const rebound = await refused(checkRequest(guard, request({ ...ok, host: "evil.example:8787" })));
  expect(rebound.status).toBe(403);
  expect(rebound.message).toBe('Host "evil.example:8787" is not this server\'s address (DNS rebinding guard); use 127.0.0.1:8787');
  // Our name on another port is another server.
  expect((await refused(checkRequest(guard, request({ ...ok, host: "127.0.0.1:9999" })))).status).toBe(403);
});

test("a browser's cross-site Origin is 403; our own origin passes", async () => {
  const guard = makeGuard(TOKEN, "127.0.0.1", 8787, false);
  const cross = await refused(checkRequest(guard, request({ ...ok, origin: "https://evil.example" })));
  expect(cross).toMatchObject({ status: 403, message: 'Origin "https://evil.example" may not call this server (cross-site requests are refused)' });
  expect(checkRequest(guard, request({ ...ok, origin: "http://localhost:8787" }))).toBeNull();
});

test("an IPv6 listen address is bracketed; --allow-remote accepts any Host but still wants the token", async () => {
  const v6 = makeGuard(TOKEN, "::1", 8787, false);
  expect(v6.hosts.has("[::1]:8787")).toBe(true);
  expect(v6.hosts.has("::1:8787")).toBe(false);
  const remote = makeGuard(TOKEN, "0.0.0.0", 8787, true);
  expect(checkRequest(remote, request({ ...ok, host: "box.lan:8787" }))).toBeNull();
  expect((await refused(checkRequest(remote, request({ host: "box.lan:8787" })))).status).toBe(401);
});
