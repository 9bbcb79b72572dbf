// AOTUI desktop benchmarks (issue 18): getSnapshot with 3 apps and a 1 000-item list, the
// execute round trip (command → handler → mutation signal) in-process and over the socket, app
// start-up time and memory per app in the compiled daemon, and the headless-DOM choice
// (happy-dom vs linkedom: start-up and memory of a worker with one document).
// `bun bench/desktop.ts` after `bun run build`; rewrites the "AOTUI desktop" section of RESULTS.md.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createDesktop, destroyDesktop, getSnapshot, type UpdateSignal } from "../lib/desktop/index.ts";
import { World } from "../tests/helpers/harness.ts";
import { RawSocket } from "../tests/helpers/raw-socket.ts";

const ROOT = resolve(import.meta.dir, "..");
const FAULTY = join(ROOT, "tests/testdata/desktop-apps/faulty");
const TODO = join(ROOT, "examples/apps/todo");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const ms = (x: number) => `${x.toFixed(x < 1 ? 3 : 2)} ms`;
const rows: string[] = [];
const row = (name: string, value: string, target: string) => {
  rows.push(`| ${name} | ${value} | ${target} |`);
  console.log(`${name}: ${value} (target ${target})`);
};

// 1. getSnapshot: system chat + thoughts + an app whose view holds 1 000 items.
{
  const desktop = await createDesktop({ apps: [FAULTY] });
  await desktop.open("app_3");
  await desktop.input.execute(`<context app_id="app_3">execute fill --n 1000</context>`);
  const changed: number[] = [];
  const unchanged: number[] = [];
  for (let i = 0; i < 200; i++) {
    await desktop.input.execute(`<context app_id="app_3">execute bump --by 1</context>`); // a new model: no cached render
    let t = performance.now();
    getSnapshot(desktop);
    changed.push(performance.now() - t);
    t = performance.now();
    getSnapshot(desktop);
    unchanged.push(performance.now() - t);
  }
  const size = getSnapshot(desktop).length;
  row("getSnapshot, 3 apps, a 1 000-item list, after a change in that view (200×)", `${ms(median(changed))} (p95 ${ms(p95(changed))}; ${size} chars)`, "≤ 5 ms");
  row("getSnapshot, same desktop, nothing changed (200×)", `${ms(median(unchanged))} (p95 ${ms(p95(unchanged))})`, "≤ 5 ms");

  // 2a. execute round trip in-process: command → handler in the app worker → dom_mutation signal.
  const roundTrips = async (command: (i: number) => string) => {
    const trips: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      const signalled = new Promise<void>((done) => {
        const listener = (s: UpdateSignal) => {
          if (s.reason !== "dom_mutation") return;
          desktop.output.unsubscribe(listener);
          done();
        };
        desktop.output.subscribe(listener);
      });
      await desktop.input.execute(command(i));
      await signalled;
      trips.push(performance.now() - t);
    }
    return `${ms(median(trips))} (p95 ${ms(p95(trips))})`;
  };
  row("execute round trip in-process (200×): command → app handler → mutation signal, in the view holding 1 000 items (the untouched list is reused; the rest of the view re-read)", await roundTrips(() => `<context app_id="app_3">execute bump --by 1</context>`), "≤ 5 ms");
  desktop.install(TODO);
  await desktop.open("app_4");
  row("execute round trip in-process (200×): the same, todo app (3 items)", await roundTrips((i) => `<context app_id="app_4">execute rename_list --title "T${i}"</context>`), "≤ 5 ms");
  destroyDesktop(desktop.id);
}

// 2b/3. Through the compiled daemon: exec over one persistent connection until the signal;
// app start-up (install --open) and RSS per app.
{
  const world = await World.start();
  try {
    const raw = await RawSocket.open(world.socketPath);
    let id = 1;
    const call = async (method: string, params: unknown) => {
      const my = id++;
      raw.send(JSON.stringify({ jsonrpc: "2.0", id: my, method, params }) + "\n");
      for (;;) {
        const message = await raw.next();
        if (message.id === my) {
          if (message.error) throw new Error(message.error.message);
          return message.result;
        }
      }
    };
    const created = await call("desktop.create", { apps: [FAULTY], open: true });
    await call("desktop.subscribe", { desktop: created.desktop });
    const trips: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      const my = id++;
      raw.send(JSON.stringify({ jsonrpc: "2.0", id: my, method: "desktop.exec", params: { command: `<context app_id="app_3">execute bump --by 1</context>` } }) + "\n");
      let acked = false;
      let signalled = false;
      while (!acked || !signalled) {
        const message = await raw.next();
        if (message.id === my) acked = true;
        if (message.method === "desktop.signal" && message.params.reason === "dom_mutation") signalled = true;
      }
      trips.push(performance.now() - t);
    }
    row("execute round trip over one socket connection (200×): desktop.exec → ack and desktop.signal", `${ms(median(trips))} (p95 ${ms(p95(trips))})`, "≤ 5 ms");
    await call("desktop.destroy", {});

    const before = (await call("daemon.status", {})).rssBytes;
    const starts: number[] = [];
    const N = 10;
    for (let i = 0; i < N; i++) {
      const desk = await call("desktop.create", { systemApps: [] });
      const t = performance.now();
      await call("desktop.install", { desktop: desk.desktop, dir: TODO, open: true });
      starts.push(performance.now() - t);
    }
    const after = (await call("daemon.status", {})).rssBytes;
    row(`App start-up in the compiled daemon: install --open of the todo app (${N}×, worker + linkedom + script + first views)`, `${ms(median(starts))} (p95 ${ms(p95(starts))})`, "≤ 50 ms");
    row(`Daemon RSS per open app (${N} todo apps, each in its own worker)`, `${((after - before) / N / 1048576).toFixed(1)} MB`, "≤ 15 MB");
    raw.close();
  } finally {
    await world[Symbol.asyncDispose]();
  }
}

// 4. The headless DOM: a worker that imports it and builds one document, from source.
{
  const dir = mkdtempSync(join(tmpdir(), "tw-dom-"));
  const body = `document.body.innerHTML = "<ul list='x[]:l'><li key=a>hi</li></ul>"; new MO(() => {}).observe(document, { subtree: true, childList: true });`;
  writeFileSync(join(dir, "happy.ts"), `const t = performance.now(); const { Window } = await import("${ROOT}/node_modules/happy-dom/lib/index.js"); const w = new Window(); const document = w.document; const MO = w.MutationObserver; ${body} postMessage(performance.now() - t);`);
  writeFileSync(join(dir, "linkedom.ts"), `const t = performance.now(); const { parseHTML } = await import("${ROOT}/node_modules/linkedom/esm/index.js"); const w = parseHTML("<!doctype html><html><body></body></html>"); const document = w.document; const MO = w.MutationObserver; ${body} postMessage(performance.now() - t);`);
  for (const lib of ["happy", "linkedom"]) {
    const workers: Worker[] = [];
    const times: number[] = [];
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 8; i++) {
      const t = performance.now();
      const worker = new Worker(join(dir, `${lib}.ts`));
      await new Promise((done) => { worker.onmessage = done; });
      times.push(performance.now() - t);
      workers.push(worker);
    }
    Bun.gc(true);
    const per = (process.memoryUsage().rss - before) / 8 / 1048576;
    row(`Headless DOM in a worker, from source: ${lib === "happy" ? "happy-dom 21" : "linkedom 0.18"} (8 workers)`, `start ${ms(median(times))}, RSS ${per.toFixed(1)} MB per worker`, "choose");
    for (const w of workers) w.terminate();
  }
  rmSync(dir, { recursive: true, force: true });
}

// 5. A real sandbox, for comparison: each app in a Node subprocess under its permission model
// (the same linkedom document; a read outside the allowed folders is refused by Node itself).
if (Bun.which("node")) {
  const dir = mkdtempSync(join(tmpdir(), "tw-sandbox-"));
  writeFileSync(join(dir, "app.mjs"), `import { parseHTML } from "${ROOT}/node_modules/linkedom/esm/index.js";
const w = parseHTML("<html><body></body></html>"); w.document.body.innerHTML = "<ul list='x[]:l'><li>hi</li></ul>";
let denied = "no"; try { (await import("node:fs")).readFileSync("/etc/hostname"); } catch (e) { denied = e.code; }
console.log(JSON.stringify({ rss: process.memoryUsage().rss, denied }));`);
  const times: number[] = [];
  let last = { rss: 0, denied: "" };
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    const child = Bun.spawn(["node", "--experimental-permission", `--allow-fs-read=${ROOT}/node_modules/*`, `--allow-fs-read=${dir}/*`, join(dir, "app.mjs")], { stdout: "pipe", stderr: "pipe" });
    last = JSON.parse(await new Response(child.stdout).text());
    await child.exited;
    times.push(performance.now() - t);
  }
  row(`Sandbox alternative: an app in a \`node --experimental-permission\` subprocess (${Bun.spawnSync(["node", "--version"]).stdout.toString().trim()}; 10×; refused read: ${last.denied})`, `start ${ms(median(times))}, RSS ${(last.rss / 1048576).toFixed(1)} MB per app`, "decide");
  rmSync(dir, { recursive: true, force: true });
}

const results = join(ROOT, "bench/RESULTS.md");
const text = readFileSync(results, "utf8");
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const section = `## AOTUI desktop (\`bun bench/desktop.ts\`)\n\nMachine load average at the end of the run: ${load} (2 cores, shared).\n\n| Measurement | Ours | Target |\n|---|---|---|\n${rows.join("\n")}\n`;
const start = text.indexOf("## AOTUI desktop");
writeFileSync(results, start < 0 ? `${text.trimEnd()}\n\n${section}` : text.slice(0, start) + section);
process.exit(0);
