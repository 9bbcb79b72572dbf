// Who may talk to `tuiwright serve --http`: a request must carry the bearer token generated at
// start, and — against DNS rebinding, where a web page's script reaches a loopback port under a
// hostile name — its Host must be the address we listen on and its Origin (when a browser sends
// one) that same address. Every refusal says why, as JSON.
import { timingSafeEqual } from "node:crypto";
export type Guard = { token: string; hosts: Set<string>; origins: Set<string> };

export function makeGuard(token: string, hostname: string, port: number, allowRemote: boolean): Guard {
  const names = new Set(["127.0.0.1", "localhost", "[::1]"]);
  names.add(hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname);
  const hosts = new Set([...names].map((name) => `${name}:${port}`));
  if (allowRemote) hosts.add("*");
  return { token, hosts, origins: new Set([...names].flatMap((name) => [`http://${name}:${port}`, `https://${name}:${port}`])) };
}

export function refusal(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { status, message } }, { status, headers });
}

/** A refusal, or null when the request may proceed. */
export function checkRequest(guard: Guard, request: Request): Response | null {
  const host = request.headers.get("host") ?? "";
  if (!guard.hosts.has("*") && !guard.hosts.has(host.toLowerCase())) {
    return refusal(403, `Host ${JSON.stringify(host)} is not this server's address (DNS rebinding guard); use ${[...guard.hosts][0]}`);
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !guard.origins.has(origin.toLowerCase())) {
    return refusal(403, `Origin ${JSON.stringify(origin)} may not call this server (cross-site requests are refused)`);
  }
  const auth = request.headers.get("authorization") ?? "";
  if (!sameSecret(auth, `Bearer ${guard.token}`)) {
    return refusal(401, auth === "" ? "missing bearer token: send Authorization: Bearer <token printed at start>" : "wrong bearer token", {
      "WWW-Authenticate": 'Bearer realm="tuiwright"',
    });
  }
  return null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
