// An HTTP listener over Bun's server (lib/runtime is where Bun.* is named). Closes on dispose.
export type HttpListener = { port: number; hostname: string; [Symbol.asyncDispose](): Promise<void> };

export function listenHttp(hostname: string, port: number, fetch: (request: Request) => Promise<Response>): HttpListener {
  const server = Bun.serve({ hostname, port, fetch, idleTimeout: 255 });
  return {
    port: server.port ?? port,
    hostname,
    async [Symbol.asyncDispose]() { await server.stop(true); },
  };
}
