// `tuiwright serve --http 127.0.0.1:0 …` as a child process, returned once it has printed where
// it listens and its token (what tests of the HTTP server need to reach it).
import { BIN } from "./harness.ts";

export type Serving = { server: Bun.Subprocess<"ignore", "pipe", "pipe">; url: string; token: string; tokenFile: string };

export async function startServe(env: Record<string, string>, flags: string[] = []): Promise<Serving> {
  const server = Bun.spawn([BIN, "serve", "--http", "127.0.0.1:0", ...flags], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const reader = server.stdout.getReader();
  let text = "";
  while (!text.includes("mode 0600")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited: ${text}${await new Response(server.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { server, url: /serving (http:\/\/[^/]+)\/rpc/.exec(text)![1]!, token: /token: (\S+)/.exec(text)![1]!, tokenFile: /stored in (\S+),/.exec(text)![1]! };
}
