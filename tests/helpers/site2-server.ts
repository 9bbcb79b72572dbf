// The second test site (tests/testdata/site2) on 127.0.0.1, with what a directory cannot hold:
// a redirect, a 404 page and an endpoint whose first byte comes after 2 s.
import { resolve } from "node:path";

export const SITE2 = resolve(import.meta.dir, "../testdata/site2");
/** The slow endpoint's delay before its first byte (a server fixture, not a wait in a test). */
export const SLOW_FIRST_BYTE_MS = 2000;

export function serveSite2(): { server: ReturnType<typeof Bun.serve>; base: string } {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/slow.html") {
        await new Promise((done) => setTimeout(done, SLOW_FIRST_BYTE_MS));
        return new Response("<title>Slow one</title><h1>The slow page arrived</h1>", { headers: { "content-type": "text/html" } });
      }
      if (path === "/redirect") return Response.redirect("/thanks.html?q=redirected", 302);
      const file = Bun.file(`${SITE2}${path === "/" ? "/index.html" : path}`);
      if (await file.exists()) return new Response(file);
      return new Response("<title>Not found</title><h1>Nothing here (404)</h1>", { status: 404, headers: { "content-type": "text/html" } });
    },
  });
  return { server, base: `http://127.0.0.1:${server.port}/` };
}

/** Starts a browser session at `url`; `browse` answers once the engine loaded the page and the
 * screen shows it, so `text` must be on the screen then (no wait, no second browser). */
export async function browseUntilText(world: { json(args: string[]): Promise<any>; run(args: string[]): Promise<{ code: number; stdout: string }> }, session: string, url: string, text: string): Promise<void> {
  await world.json(["browse", "--session", session, url]);
  const shown = (await world.run(["snapshot", "--session", session, "--plain"])).stdout;
  if (!shown.includes(text)) throw new Error(`browse answered before ${url} showed ${JSON.stringify(text)}: ${shown.slice(-600)}`);
}
