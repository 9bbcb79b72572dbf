// A scripted agent over MCP (no LLM: it reads only the Markdown and writes DSL, as a model would)
// completes a task across an HTML5 app (Todo) and a terminal app (htop): it is told the truth
// about each refusal, and never acts on an item it did not reference. The desktop's signals
// reach it as MCP resource updates.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { resolve } from "node:path";
import { BIN, processAlive, World } from "../helpers/harness.ts";
import { findApplication, findItem, parseDesktopStrict } from "../helpers/markdown-agent.ts";

setDefaultTimeout(240_000);

const TODO = resolve(import.meta.dir, "../../examples/apps/todo");

let world: World;
beforeAll(async () => { world = await World.start(); });
afterAll(async () => { await world[Symbol.asyncDispose](); });

type Reply = { ok: boolean; text: string; data: any };

test("an agent loop over MCP: kill a job in htop and tick a todo, told the truth about every refusal", async () => {
  const job = Bun.spawn(["sleep", "3617"]);
  const bystander = Bun.spawn(["sleep", "3618"]);
  const client = new Client({ name: "scripted-agent", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: BIN, args: ["mcp", "--tools", "core,desktop"], env: world.env, stderr: "pipe" }));
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { updates.push(n.params.uri); });
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<Reply> => {
    const reply = await client.callTool({ name, arguments: args });
    return { ok: reply.isError !== true, text: (reply.content as any)[0]?.text ?? "", data: reply.structuredContent };
  };
  const read = async (): Promise<string> => {
    const reply = await call("desktop_snapshot");
    expect(reply.ok).toBe(true);
    parseDesktopStrict(reply.text); // whatever apps show, the structure reads cleanly
    return reply.text;
  };
  const exec = (app: string, dsl: string) => call("desktop_exec", { command: `<context app_id="${app}">${dsl}</context>` });
  try {
    // The product layer: a desktop with Todo, htop running, the user's request.
    const created = await call("desktop_create", { apps: [TODO], open: true, operationTimeoutMs: 60_000 });
    expect(created.ok).toBe(true);
    const desktop = created.data.desktop as string;
    expect((await call("spawn", { argv: ["htop"], session: "top", cols: 160, rows: 40 })).ok).toBe(true);
    expect((await call("wait", { session: "top", text: ["PID"], timeoutMs: 60_000 })).ok).toBe(true);
    await client.subscribeResource({ uri: `tuiwright://desktop/${desktop}` });
    expect((await call("desktop_say", { text: "Please stop the job 'sleep 3617' and mark 'Write the report' and 'Call the plumber' done." })).ok).toBe(true);

    // The agent reads, finds the user's words, opens the terminal the desktop offers.
    let markup = await read();
    expect(findItem(markup, "user: Please stop the job").ref).toBe("message_list[0]");
    const opened = await call("desktop_exec", { command: "<context>open --application session:top</context>" });
    expect(opened.ok).toBe(true);
    const top = opened.data.app as string;
    expect((await exec(top, `execute filter --text "sleep 361"`)).ok).toBe(true);

    // It kills the row it read, by reference: evidence comes back with the ok.
    markup = await read();
    // The argument says where its items come from (the list is in another view of the app).
    expect(markup).toContain("- process: row (an item of processes, e.g. processes[0])");
    const target = findItem(markup, "sleep 3617", top);
    findItem(markup, "sleep 3618", top);
    const killed = await exec(top, `execute kill_process --process ${target.ref}`);
    expect(killed.text).not.toContain("E_");
    expect(killed.ok).toBe(true);
    expect(killed.data.evidence.map((e: any) => e.rule)).toEqual(["selected", "signal-menu", "process-gone"]);
    expect(await job.exited).not.toBe(0);
    expect(job.signalCode).toBe("SIGTERM");
    // The same reference again (what it read then): that process is gone. Refused, and nothing
    // else is touched — not the bystander htop has selected now.
    const again = await exec(top, `execute kill_process --process ${target.ref}`);
    expect(again.ok).toBe(false);
    expect(again.text).toMatch(/^E_NOT_FOUND: kill_process: process \d+ is no longer in htop's list \(it exited, or the filter hides it\); no signal was sent/);
    expect(again.data.error.data).toMatchObject({ aotui: "E_NOT_FOUND", recoverable: true });
    expect(processAlive(bystander.pid)).toBe(true);

    // A value it cannot type: refused before any key, with why.
    const typed = await exec(top, `execute filter --text "sleep\\r!touch x"`);
    expect(typed.ok).toBe(false);
    expect(typed.text).toContain("E_INVALID_ARG: filter --text");
    expect(typed.text).toContain("carriage return");

    // The todo: the agent reads it; before it acts, someone deletes that todo. Its reference
    // still means "Write the report" (value-driven), so the app says no in its own words — and
    // "Call the plumber", which moved into that place, is not touched.
    markup = await read();
    const todoApp = findApplication(markup, "Todo");
    const report = findItem(markup, "Write the report", todoApp);
    expect((await world.run(["desktop", "exec", `execute delete_todo --item ${report.ref}`, "--app", todoApp])).code).toBe(0);
    const stale = await exec(todoApp, `execute complete_todo --item ${report.ref}`);
    expect(stale.ok).toBe(false);
    expect(stale.text).toContain("E_REFUSED: the app refused complete_todo: no todo t2");
    expect(stale.data.error.data).toMatchObject({ aotui: "E_REFUSED", recoverable: true });
    markup = await read();
    expect(markup).toContain("[Call the plumber](item:todo_list[1])"); // not done by the refused command
    expect(() => findItem(markup, "Write the report", todoApp)).toThrow();
    const plumber = findItem(markup, "Call the plumber", todoApp);
    const done = await exec(todoApp, `execute complete_todo --item ${plumber.ref}`);
    expect(done.ok).toBe(true);
    markup = await read();
    expect(findItem(markup, "Call the plumber (done)", todoApp).ref).toBe(plumber.ref);

    // It tells the user what happened, in several lines.
    const told = await exec("app_1", `execute send_message --content "Stopped sleep 3617. 'Call the plumber' is done.\\n'Write the report' was deleted before I could mark it."`);
    expect(told.ok).toBe(true);
    markup = await read();
    expect(findItem(markup, "agent: Stopped sleep 3617. 'Call the plumber' is done. 'Write the report' was deleted").ref).toBe("message_list[1]");
    // The desktop's changes reached the agent as resource updates (no polling needed).
    expect(updates.length).toBeGreaterThan(0);
    expect(new Set(updates)).toEqual(new Set([`tuiwright://desktop/${desktop}`]));
    const resource = await client.readResource({ uri: `tuiwright://desktop/${desktop}` });
    expect((resource.contents[0] as any).text).toStartWith("<desktop>");
  } finally {
    await client.close();
    job.kill("SIGKILL");
    bystander.kill("SIGKILL");
  }
});
