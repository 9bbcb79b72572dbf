// AOTUI desktops through the compiled binary: CLI verbs, exit codes, raw JSON-RPC (locks per
// connection, signals as notifications) and the MCP desktop tool pair.
import { expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BIN, useWorld } from "../helpers/harness.ts";
import { findApplication, findItem, findView, viewText } from "../helpers/markdown-agent.ts";
import { RawSocket } from "../helpers/raw-socket.ts";

const APPS = resolve(import.meta.dir, "../../examples/apps");

// Bounds for a loaded machine, not speed checks (bench/desktop.ts measures speed).
setDefaultTimeout(60_000);

const world = useWorld();

async function fresh(...apps: string[]): Promise<string> {
  for (const d of (await world.json(["desktop", "list"])).desktops) await world.json(["desktop", "destroy", "--desktop", d.desktop]);
  return (await world.json(["desktop", "create", "--open", ...apps.map((a) => `${APPS}/${a}`)])).desktop;
}

async function snapshot(): Promise<string> {
  const run = await world.run(["desktop", "snapshot"]);
  expect(run.code).toBe(0);
  return run.stdout;
}

/** Reads lines from a raw connection until one satisfies `wanted`. */
async function until(raw: RawSocket, wanted: (message: any) => boolean): Promise<any> {
  for (;;) {
    const message = await raw.next();
    if (wanted(message)) return message;
  }
}

test("CLI: an agent loop completes a todo by reference, and the Markdown shows it", async () => {
  await fresh("todo");
  const markup = await snapshot();
  expect(markup).toStartWith("<desktop>\n<!-- View 0: System Instructions & Global Commands -->\n<view id=\"view_0\", name=\"System Instructions\">");
  const target = findItem(markup, "Call the plumber");
  const run = await world.run(["desktop", "exec", `execute complete_todo --item ${target.ref}`, "--app", target.app, "--view", target.view]);
  expect(run.stderr).toBe("");
  expect(run.stdout).toBe(`ok: execute complete_todo --item todo_list[2] (${target.app} ${target.view})\n`);
  expect(await snapshot()).toContain("3. [Call the plumber (done)](item:todo_list[2])");
});

test("CLI: errors carry the AOTUI code and our exit codes", async () => {
  await fresh("todo");
  await snapshot();
  const cases: [string[], number, string][] = [
    [["desktop", "exec", "<context>dance</context>"], 65, "E_INVALID_CMD: unknown command \"dance\""],
    [["desktop", "exec", "execute fly", "--app", "app_3"], 66, "E_NOT_FOUND: no mounted view of app_3 has an operation \"fly\""],
    [["desktop", "exec", "<context>close --application app_1</context>"], 77, "E_PERMISSION: app_1 (ChatWithUser) is a system app and cannot be closed"],
    [["desktop", "exec", "execute add_todo --txt x", "--app", "app_3"], 65, "E_INVALID_CMD: add_todo has no argument \"txt\" (arguments: text)"],
    [["desktop", "exec", "execute add_todo", "--app", "app_3", "--snapshot-id", "T0"], 65, "E_INVALID_CMD: add_todo needs --text (string)"],
    [["desktop", "exec", "execute complete_todo --item todo_list[0]", "--app", "app_3", "--snapshot-id", "T77"], 66, "E_NOT_FOUND: the snapshot this command refers to was never taken of this desktop"],
    [["desktop", "snapshot", "--desktop", "nope"], 66, "E_NOT_FOUND: no desktop \"nope\""],
    [["desktop", "exec", "<context>open --application app_1</context>", "--app", "app_1"], 64, "--app/--view go with a bare DSL command"],
  ];
  for (const [args, code, message] of cases) {
    const run = await world.run(args);
    expect(`${run.code} ${run.stderr}`).toStartWith(`${code} tuiwright: ${message}`);
  }
  const json = await world.run(["--json", "desktop", "exec", "<context>dance</context>"]);
  expect(JSON.parse(json.stdout).error).toMatchObject({ code: -32030, data: { name: "invalid-command", aotui: "E_INVALID_CMD", recoverable: true } });
});

test("CLI: a broken aoapp.json is refused with its field, exit 65", async () => {
  const dir = join(world.dir, "broken-app");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "aoapp.json"), JSON.stringify({ id: "com.example.broken", name: "Broken", version: "1.0", entry: "main.js" }));
  const run = await world.run(["desktop", "create", dir]);
  expect(run.code).toBe(65);
  expect(run.stderr).toContain(`E_INVALID_CMD: ${dir}/aoapp.json: version must be a version such as "1.0.0", got "1.0"`);
  expect(run.stderr).toContain("hint: aoapp.json needs id, name, version, entry");
});

test("CLI: save → destroy → restore gives the same Markdown", async () => {
  const id = await fresh("todo", "mail");
  let markup = await snapshot();
  const mail = findApplication(markup, "Mail");
  expect((await world.run(["desktop", "say", "Please read Bob's mail"])).code).toBe(0);
  expect((await world.run(["desktop", "exec", `execute open_mail --mail ${findItem(markup, "Quarterly report").ref}`, "--app", mail])).code).toBe(0);
  markup = await snapshot();
  expect(viewText(markup, findView(markup, mail, "MailDetail"))).toContain("Draft attached");
  const file = join(world.dir, "desk.json");
  expect((await world.run(["desktop", "save", file])).stdout).toBe(`saved ${id} to ${file}\n`);
  expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ id, apps: expect.any(Array) });
  const again = await world.run(["desktop", "save", file]);
  expect(again.code).toBe(65);
  expect(again.stderr).toContain("it exists already");
  await world.json(["desktop", "destroy"]);
  expect((await world.run(["desktop", "snapshot"])).code).toBe(66);
  expect((await world.run(["desktop", "restore", file])).code).toBe(0);
  expect(await snapshot()).toBe(markup);
  expect(markup).toContain("[user: Please read Bob's mail](item:message_list[0])");
});

test("CLI: app folders and state files named relative to the caller's cwd (the daemon's is another)", async () => {
  for (const d of (await world.json(["desktop", "list"])).desktops) await world.json(["desktop", "destroy", "--desktop", d.desktop]);
  const created = await world.json(["desktop", "create", "todo"], { cwd: APPS });
  expect(created.apps.map((app: { name: string }) => app.name)).toContain("Todo");
  expect((await world.run(["desktop", "save", "relative.json"])).stdout).toBe(`saved ${created.desktop} to ${join(world.dir, "relative.json")}\n`);
  await world.json(["desktop", "destroy"]);
  expect((await world.run(["desktop", "restore", "relative.json"])).code).toBe(0);
  const missing = await world.run(["desktop", "restore", "missing.json"]);
  expect(`${missing.code} ${missing.stderr}`).toStartWith(`66 tuiwright: cannot read ${JSON.stringify(join(world.dir, "missing.json"))}`);
  writeFileSync(join(world.dir, "not-json.json"), "nope");
  const bad = await world.run(["desktop", "restore", "not-json.json"]);
  expect(`${bad.code} ${bad.stderr}`).toStartWith(`65 tuiwright: ${join(world.dir, "not-json.json")} is not JSON: `);
});

test("JSON-RPC: the input lock belongs to one owner and goes with its connection; signals are notifications", async () => {
  const desktop = await fresh("todo");
  const a = await RawSocket.open(world.socketPath);
  const b = await RawSocket.open(world.socketPath);
  try {
    expect((await a.call({ jsonrpc: "2.0", id: 1, method: "desktop.acquire", params: { owner: "agent-A" } })).result).toEqual({ desktop, owner: "agent-A" });
    const refused = await b.call({ jsonrpc: "2.0", id: 2, method: "desktop.acquire", params: { owner: "agent-B" } });
    expect(refused.error).toMatchObject({ code: -32034, message: 'E_PERMISSION: the desktop\'s input is held by "agent-A"', data: { aotui: "E_PERMISSION", recoverable: false } });
    const command = `<context app_id="app_3">execute add_todo --text "from B"</context>`;
    expect((await b.call({ jsonrpc: "2.0", id: 3, method: "desktop.exec", params: { command, owner: "agent-B" } })).error.code).toBe(-32034);
    const cli = await world.run(["desktop", "exec", "execute add_todo --text x", "--app", "app_3"]);
    expect(cli.code).toBe(75);
    expect((await b.call({ jsonrpc: "2.0", id: 4, method: "desktop.subscribe", params: {} })).result).toMatchObject({ desktop, subscription: expect.any(String) });
    const ok = await a.call({ jsonrpc: "2.0", id: 5, method: "desktop.exec", params: { command: `<context app_id="app_3">execute add_todo --text "from A"</context>`, owner: "agent-A" } });
    expect(ok.result).toMatchObject({ desktop, status: "ok", operation: "add_todo", args: { text: "from A" } });
    const signal = await until(b, (m) => m.method === "desktop.signal");
    expect(signal.params).toEqual({ subscription: expect.any(String), desktopId: desktop, timestamp: expect.any(Number), reason: "dom_mutation" });
    a.close();
    // A's connection is gone, so its lock is: B may take the input now.
    // A's connection is gone, so its lock goes once the daemon has seen the close (each try is a round trip).
    let taken: any;
    let id = 100;
    do taken = await b.call({ jsonrpc: "2.0", id: id++, method: "desktop.acquire", params: { owner: "agent-B" } });
    while (taken.error?.code === -32034);
    expect(taken.result).toEqual({ desktop, owner: "agent-B" });
    await b.call({ jsonrpc: "2.0", id: 8, method: "desktop.exec", params: { command, owner: "agent-B" } });
    expect(await snapshot()).toContain("[from B](item:todo_list[4])");
  } finally {
    b.close();
  }
});

test("JSON-RPC: the lock is bound to the connection that took it — another connection presenting the same owner string can neither write nor release", async () => {
  const desktop = await fresh("todo");
  const a = await RawSocket.open(world.socketPath);
  const b = await RawSocket.open(world.socketPath);
  try {
    expect((await a.call({ jsonrpc: "2.0", id: 1, method: "desktop.acquire", params: { owner: "agent-A" } })).result).toEqual({ desktop, owner: "agent-A" });
    const command = `<context app_id="app_3">execute add_todo --text "impostor"</context>`;
    const exec = await b.call({ jsonrpc: "2.0", id: 2, method: "desktop.exec", params: { command, owner: "agent-A" } });
    expect(exec.error).toMatchObject({ code: -32034, message: 'E_PERMISSION: the desktop\'s input is held by "agent-A" on another connection', data: { aotui: "E_PERMISSION" } });
    const release = await b.call({ jsonrpc: "2.0", id: 3, method: "desktop.release", params: { owner: "agent-A" } });
    expect(release.error).toMatchObject({ code: -32034, message: 'E_PERMISSION: the desktop\'s input is held by "agent-A" on another connection' });
    const again = await b.call({ jsonrpc: "2.0", id: 4, method: "desktop.acquire", params: { owner: "agent-A" } });
    expect(again.error).toMatchObject({ code: -32034 });
    expect(await snapshot()).not.toContain("impostor");
    expect((await a.call({ jsonrpc: "2.0", id: 5, method: "desktop.exec", params: { command: command.replace("impostor", "holder"), owner: "agent-A" } })).result).toMatchObject({ status: "ok" });
    expect((await a.call({ jsonrpc: "2.0", id: 6, method: "desktop.release", params: { owner: "agent-A" } })).result).toEqual({ desktop, released: true });
  } finally {
    a.close();
    b.close();
  }
});

test("MCP: desktop_snapshot shows only the Markdown; desktop_exec resolves references in it", async () => {
  await fresh("mail");
  const client = new Client({ name: "desktop-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: BIN, args: ["mcp", "--tools", "core,desktop"], env: world.env, stderr: "pipe" }));
  try {
    const read = await client.callTool({ name: "desktop_snapshot", arguments: {} });
    const markup = (read.content as any)[0].text as string;
    expect(markup).toStartWith("<desktop>");
    expect(JSON.stringify(read.structuredContent)).not.toContain("snapshot_id");
    const welcome = findItem(markup, "Welcome aboard");
    // New mail arrives after the agent read: inbox[2] is now someone else.
    await world.run(["desktop", "exec", `execute receive_mail --from dave@example.com --subject "Late news"`, "--app", welcome.app]);
    const acted = await client.callTool({ name: "desktop_exec", arguments: { command: `<context app_id="${welcome.app}" view_id="${welcome.view}">execute open_mail --mail ${welcome.ref}</context>` } });
    expect(acted.isError).toBe(false);
    const after = await snapshot();
    expect(viewText(after, findView(after, welcome.app, "MailDetail"))).toContain("# [Welcome aboard](entity:mail_subject)");
  } finally {
    await client.close();
  }
});

test("new-app writes an app a desktop opens at once; an existing non-empty folder is refused", async () => {
  await fresh();
  const dir = join(world.dir, "my-notes");
  const made = await world.run(["desktop", "new-app", dir]);
  expect(made.stdout).toStartWith(`created com.example.mynotes in ${dir} (aoapp.json, main.js)`);
  const again = await world.run(["desktop", "new-app", dir]);
  expect(again.code).toBe(65);
  expect(again.stderr).toContain("exists and is not empty");
  const installed = await world.json(["desktop", "install", dir, "--open"]);
  let markup = await snapshot();
  expect(markup).toContain(`<application id="${installed.app}", name="My notes">`);
  expect(markup).toContain("1. [First item](item:item_list[0])");
  await world.run(["desktop", "exec", `execute add_item --text "Second"`, "--app", installed.app]);
  markup = await snapshot();
  await world.run(["desktop", "exec", `execute remove_item --item ${findItem(markup, "First item").ref}`, "--app", installed.app]);
  expect(await snapshot()).toContain("1. [Second](item:item_list[0])");
});

test("the Inspector: a terminal UI driven by tuiwright itself — live Markdown, signals, a command", async () => {
  await fresh("todo");
  await world.spawn([BIN, "desktop", "inspect"], ["--session", "insp", "--cols", "110", "--rows", "32"]);
  await world.run(["wait", "-s", "insp", "--text", "AOTUI Inspector", "--text", "watching desktop_", "--all"]);
  expect((await world.run(["snapshot", "-s", "insp"])).stdout).toContain("<desktop>");
  await world.run(["desktop", "say", "hello inspector"]);
  expect((await world.run(["wait", "-s", "insp", "--text", "signal dom_mutation"])).code).toBe(0);
  await world.run(["press", "-s", "insp", ":"]);
  await world.run(["type", "-s", "insp", `<context app_id="app_3">execute add_todo --text "via inspector"</context>`]);
  await world.run(["press", "-s", "insp", "Enter"]);
  expect((await world.run(["wait", "-s", "insp", "--text", "→ ok"])).code).toBe(0);
  expect(await snapshot()).toContain("[via inspector](item:todo_list[3])");
  await world.run(["press", "-s", "insp", ":"]);
  await world.run(["type", "-s", "insp", "close --application app_1"]);
  await world.run(["press", "-s", "insp", "Enter"]);
  expect((await world.run(["wait", "-s", "insp", "--text", "→ E_PERMISSION: app_1 (ChatWithUser) is a system app"])).code).toBe(0);
  await world.run(["press", "-s", "insp", "G"]);
  expect((await world.run(["wait", "-s", "insp", "--text", "</desktop>"])).code).toBe(0);
  await world.run(["press", "-s", "insp", "q"]);
  expect((await world.run(["wait", "-s", "insp", "--exit"])).code).toBe(0);
});
