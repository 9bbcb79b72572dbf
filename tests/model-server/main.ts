// `bun tests/model-server/main.ts [--script FILE.json] [--log FILE.jsonl]`: serve a scripted
// model on 127.0.0.1 (a free port), print its URL on the first line, run until killed.
import { readFileSync } from "node:fs";
import { startModelServer } from "./server.ts";

const args = process.argv.slice(2);
const option = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const scriptFile = option("--script");
const server = startModelServer({
  ...(scriptFile ? { script: JSON.parse(readFileSync(scriptFile, "utf8")) } : {}),
  ...(option("--log") ? { logFile: option("--log")! } : {}),
});
console.log(server.url);
