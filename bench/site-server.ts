// The test site (tests/testdata/site/) served on 127.0.0.1 by the calling process, for the
// browser benchmarks. Callers must not block their event loop (no spawnSync) while a page loads.
import { resolve } from "node:path";

const SITE = resolve(import.meta.dir, "../tests/testdata/site");

export function serveSite(): { url: string; stop(): void } {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const file = Bun.file(`${SITE}${path === "/" ? "/index.html" : path}`);
      return (await file.exists()) ? new Response(file) : new Response("not found", { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/`, stop: () => server.stop(true) };
}
