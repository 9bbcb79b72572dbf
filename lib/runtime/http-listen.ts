// An HTTP listener over Bun's server (lib/runtime is where Bun.* is named). Closes on dispose.
// A port that cannot be had (in use, not ours to bind, an address this machine does not have)
// is an error naming the address, not an internal one.
import { TuiwrightError } from "../protocol/errors.ts";

export type HttpListener = { port: number; hostname: string; [Symbol.asyncDispose](): Promise<void> };

function listenError(hostname: string, port: number, error: unknown): TuiwrightError {
  const code = (error as NodeJS.ErrnoException).code;
  const at = `${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  const anyPort = "give another port, or port 0 to let the system pick a free one";
  if (code === "EADDRINUSE") return new TuiwrightError("io", `cannot listen on ${at}: the port is in use (EADDRINUSE)`, { hint: `${anyPort}; \`ss -ltnp\` shows who holds it` });
  if (code === "EACCES" || code === "EPERM") return new TuiwrightError("permission", `cannot listen on ${at}: permission denied (ports below 1024 need privileges)`, { hint: anyPort });
  if (code === "EADDRNOTAVAIL") return new TuiwrightError("io", `cannot listen on ${at}: this machine has no such address (EADDRNOTAVAIL)`, { hint: "give one of this machine's addresses, such as 127.0.0.1" });
  return new TuiwrightError("io", `cannot listen on ${at}: ${code ?? (error as Error).message}`);
}

export function listenHttp(hostname: string, port: number, fetch: (request: Request) => Promise<Response>): HttpListener {
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({ hostname, port, fetch, idleTimeout: 255 });
  } catch (error) {
    throw listenError(hostname, port, error);
  }
  return {
    port: server.port ?? port,
    hostname,
    async [Symbol.asyncDispose]() { await server.stop(true); },
  };
}
