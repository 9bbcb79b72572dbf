// The in-process AOTUI runtime driven like an agent would: Markdown in, DSL out. Each test
// makes its own desktop (apps run in real workers with a real headless DOM).
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createDesktop, destroyDesktop, getSnapshot, listDesktops, restore, serialize, SNAPSHOT_LIMIT, type Desktop, type UpdateSignal } from "../../../lib/desktop/index.ts";
import { SignalOutputStream } from "../../../lib/desktop/signal-stream.ts";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";
import { findApplication, findItem, findView, viewText } from "../../helpers/markdown-agent.ts";

const APPS = resolve(import.meta.dir, "../../../examples/apps");
const FAULTY = resolve(import.meta.dir, "../../testdata/desktop-apps/faulty");
const GOLDEN = resolve(import.meta.dir, "../../testdata/desktop-golden.md");

// Bounds for a loaded machine (apps start in workers), not speed checks.
setDefaultTimeout(60_000);

afterEach(() => {
  for (const desktop of listDesktops()) destroyDesktop(desktop.id);
});

async function refusal(promise: Promise<unknown>): Promise<TuiwrightError> {
  try {
    await promise;
  } catch (error) {
    return error as TuiwrightError;
  }
  throw new Error("expected the command to be refused");
}

async function desktopWith(...apps: string[]): Promise<Desktop> {
  const desktop = await createDesktop({ apps: apps.map((a) => (a.startsWith("/") ? a : `${APPS}/${a}`)), operationTimeoutMs: 2_000 });
  for (const app of desktop.list()) if (app.state === "installed") await desktop.input.execute(`<context>open --application ${app.alias}</context>`);
  return desktop;
}

test("the Markdown of §4.1 matches the golden file", async () => {
  const desktop = await desktopWith("todo");
  expect(getSnapshot(desktop)).toBe(readFileSync(GOLDEN, "utf8").trimEnd());
});

test("agent loop: complete a todo by item reference", async () => {
  const desktop = await desktopWith("todo");
  desktop.input.acquire("agent");
  const { markup, snapshot_id } = desktop.snapshot();
  const target = findItem(markup, "Write the report");
  expect(target.ref).toBe("todo_list[1]");
  const ack = await desktop.input.execute({ text: `<context app_id="${target.app}" view_id="${target.view}">execute complete_todo --item ${target.ref}</context>`, snapshot_id, owner: "agent" });
  expect(ack).toMatchObject({ status: "ok", operation: "complete_todo", args: { item: { id: "t2" } }, stable_keys: ["t2"] });
  const after = getSnapshot(desktop);
  expect(findItem(after, "Write the report (done)").ref).toBe("todo_list[1]");
  expect(after).toContain("2 open, 1 done");
  expect(after).toContain("1. execute complete_todo --item todo_list\\[1\\] → ok"); // the agent's own text, escaped like any text
});

test("agent loop: a mail unmounted between snapshot and execute is still opened (value-driven execution)", async () => {
  const desktop = await desktopWith("mail");
  const seen = desktop.snapshot();
  const lunch = findItem(seen.markup, "Lunch on Friday?");
  expect(lunch.ref).toBe("inbox[0]");
  // While the agent thinks, the mail is archived: its <li> leaves the DOM and inbox[0] is now Bob's.
  await desktop.input.execute({ text: `<context app_id="${lunch.app}">execute archive_mail --mail inbox[0]</context>`, snapshot_id: seen.snapshot_id });
  const now = getSnapshot(desktop);
  expect(now).not.toContain("Lunch on Friday?");
  expect(findItem(now, "Quarterly report").ref).toBe("inbox[0]");
  // The agent acts on what it saw: inbox[0] of its snapshot.
  await desktop.input.execute({ text: `<context app_id="${lunch.app}" view_id="${lunch.view}">execute open_mail --mail ${lunch.ref}</context>`, snapshot_id: seen.snapshot_id });
  const opened = getSnapshot(desktop);
  const detail = findView(opened, lunch.app, "MailDetail");
  expect(viewText(opened, detail)).toContain("# [Lunch on Friday?](entity:mail_subject)");
  expect(viewText(opened, detail)).toContain("From: alice@example.com");
});

test("views: the mail detail starts dismounted; mount/hide/show/dismount by the agent", async () => {
  const desktop = await desktopWith("mail");
  let markup = getSnapshot(desktop);
  const app = findApplication(markup, "Mail");
  const detail = findView(markup, app, "MailDetail");
  expect(markup).toContain(`Dismounted views: [MailDetail](view:${detail})`);
  await desktop.input.execute(`<context>mount --view ${detail}</context>`);
  expect(getSnapshot(desktop)).toContain(`<view id="${detail}", name="MailDetail">`);
  await desktop.input.execute(`<context>hide --view ${detail}</context>`);
  markup = getSnapshot(desktop);
  expect(markup).toContain(`<view id="${detail}", name="MailDetail", state="hidden"></view>`);
  const closeMail = await refusal(desktop.input.execute(`<context app_id="${app}" view_id="${detail}">execute close_mail</context>`));
  expect(closeMail.message).toContain("is hidden");
  await desktop.input.execute(`<context>show --view ${detail}</context>`);
  await desktop.input.execute(`<context>dismount --view ${detail}</context>`);
  expect(getSnapshot(desktop)).toContain(`Dismounted views: [MailDetail](view:${detail})`);
  await desktop.input.execute(`<context>collapse --application ${app}</context>`);
  markup = getSnapshot(desktop);
  expect(markup).toContain(`<application id="${app}", name="Mail", state="collapsed">`);
  expect(markup).not.toContain("# [Inbox](list:inbox)");
  await desktop.input.execute(`<context>show --application ${app}</context>`);
  expect(getSnapshot(desktop)).toContain("# [Inbox](list:inbox)");
});

test("every error code of §8, with data.recoverable", async () => {
  const desktop = await desktopWith(FAULTY, "todo");
  const markup = desktop.snapshot().markup;
  const faulty = findApplication(markup, "Faulty");
  const todo = findApplication(markup, "Todo");
  const cases: [string, string, string, boolean][] = [
    ["<context>dance</context>", "E_INVALID_CMD", "invalid-command", true],
    [`<context app_id="${todo}">execute complete_todo --item nothing[0]</context>`, "E_NOT_FOUND", "desktop-not-found", true],
    [`<context app_id="app_99">execute x</context>`, "E_NOT_FOUND", "desktop-not-found", true],
    [`<context app_id="${todo}">execute fly</context>`, "E_NOT_FOUND", "desktop-not-found", true],
    [`<context app_id="${faulty}">execute fetch_forbidden --url http://forbidden.invalid/</context>`, "E_PERMISSION", "desktop-permission", false],
    [`<context app_id="${faulty}">execute explode</context>`, "E_REFUSED", "app-refused", true],
    [`<context app_id="${faulty}">execute hang</context>`, "E_TIMEOUT", "timeout", false],
    [`<context app_id="${faulty}">execute bump --by 1</context>`, "E_BUSY", "busy", true],
  ];
  for (const [command, code, name, recoverable] of cases) {
    const error = await refusal(desktop.input.execute(command));
    expect(error.errorName).toBe(name as any);
    expect(error.message).toStartWith(`${code}: `);
    expect(error.toJsonRpc().data).toMatchObject({ aotui: code, recoverable });
  }
});

test("a throwing handler is the app's refusal: E_REFUSED (recoverable) with its message, and the desktop (and the app) live on", async () => {
  const desktop = await desktopWith(FAULTY);
  const faulty = findApplication(getSnapshot(desktop), "Faulty");
  const error = await refusal(desktop.input.execute(`<context app_id="${faulty}">execute explode</context>`));
  expect(error.message).toBe("E_REFUSED: the app refused explode: the handler blew up on purpose");
  expect(error.toJsonRpc().data).toMatchObject({ aotui: "E_REFUSED", recoverable: true, app_message: "the handler blew up on purpose" });
  await desktop.input.execute(`<context app_id="${faulty}">execute bump --by 2 --loud</context>`);
  const markup = getSnapshot(desktop);
  expect(markup).toContain("        20\n");
  expect(markup).toContain("1. execute explode → E_REFUSED: the app refused explode: the handler blew up on purpose");
  expect(markup).toContain("2. execute bump --by 2 --loud → ok");
});

test("an operation past its timeout: E_TIMEOUT not recoverable (it may still apply), the app shown not-responding and refused at once (E_BUSY) until it answers", async () => {
  const desktop = await createDesktop({ apps: [FAULTY], operationTimeoutMs: 300 });
  {
    await desktop.input.execute(`<context>open --application app_3</context>`);
    const faulty = findApplication(getSnapshot(desktop), "Faulty");
    const timedOut = await refusal(desktop.input.execute(`<context app_id="${faulty}">execute hang</context>`));
    expect(timedOut.message).toContain("E_TIMEOUT: operation hang did not finish within 300 ms; it may still finish and take effect");
    expect(timedOut.toJsonRpc().data).toMatchObject({ aotui: "E_TIMEOUT", recoverable: false });
    const markup = getSnapshot(desktop);
    expect(markup).toContain(`<application id="${faulty}", name="Faulty", state="not-responding">`);
    expect(markup).toMatch(/Not responding: operation hang has not finished after \d+ s/);
    const started = performance.now();
    const busy = await refusal(desktop.input.execute(`<context app_id="${faulty}">execute bump --by 1</context>`));
    expect(busy.message).toMatch(/^E_BUSY: app_\d+ is not responding: operation hang has not finished/);
    expect(performance.now() - started).toBeLessThan(250); // at once, not after another timeout
    await desktop.input.execute(`<context>close --application ${faulty}</context>`);
    await desktop.input.execute(`<context>open --application ${faulty}</context>`);
    await desktop.input.execute(`<context app_id="${faulty}">execute bump --by 1</context>`);
  }
});

test("an app whose worker dies is shown as crashed; the desktop lives and the app can be opened again", async () => {
  const desktop = await desktopWith(FAULTY, "todo");
  const faulty = findApplication(getSnapshot(desktop), "Faulty");
  const error = await refusal(desktop.input.execute(`<context app_id="${faulty}">execute die</context>`));
  expect(error.errorName).toBe("app-failed");
  expect(error.message).toContain("E_INTERNAL: the app crashed: its worker exited");
  let markup = getSnapshot(desktop);
  expect(markup).toContain(`<application id="${faulty}", name="Faulty", state="crashed">`);
  expect(markup).toContain("crashed: its worker exited");
  const todo = findApplication(markup, "Todo");
  await desktop.input.execute(`<context app_id="${todo}">execute add_todo --text alive</context>`);
  await desktop.input.execute(`<context>close --application ${faulty}</context>`);
  await desktop.input.execute(`<context>open --application ${faulty}</context>`);
  markup = getSnapshot(desktop);
  expect(markup).toContain(`<application id="${faulty}", name="Faulty">`);
  expect(markup).toContain("[alive](item:todo_list[3])");
});

test("permission denial: the file browser reads its own data folder, not /etc, and not through a symlink planted in it", async () => {
  const folder = mkdtempSync(join(tmpdir(), "tw-files-app-"));
  cpSync(`${APPS}/files`, folder, { recursive: true });
  symlinkSync("/etc", join(folder, "data", "escape"));
  const desktop = await desktopWith(folder);
  const files = findApplication(getSnapshot(desktop), "Files");
  expect(getSnapshot(desktop)).toContain(`# [${folder}/data](entity:current_dir)`);
  await desktop.input.execute(`<context app_id="${files}">execute change_dir --path ${folder}/data/notes</context>`);
  const error = await refusal(desktop.input.execute(`<context app_id="${files}">execute change_dir --path /etc</context>`));
  expect(error.errorName).toBe("desktop-permission");
  expect(error.message).toBe("E_PERMISSION: fs:read of /etc is not granted by this app's permissions");
  const planted = await refusal(desktop.input.execute(`<context app_id="${files}">execute change_dir --path ${folder}/data/escape</context>`));
  expect(planted.message).toBe(`E_PERMISSION: fs:read of ${folder}/data/escape (it is /etc) is not granted by this app's permissions`);
  expect(getSnapshot(desktop)).toContain(`# [${folder}/data/notes](entity:current_dir)`);
  rmSync(folder, { recursive: true, force: true });
});

test("permission denial: fetch, XMLHttpRequest, WebSocket and file reads outside the app's permissions", async () => {
  const desktop = await desktopWith(FAULTY);
  const faulty = findApplication(getSnapshot(desktop), "Faulty");
  const cases: [string, string][] = [
    [`execute fetch_forbidden --url https://example.com/`, "net access to https://example.com/ is not granted"],
    [`execute xhr_forbidden --url http://example.com/x`, "net access to http://example.com/x is not granted"],
    [`execute ws_forbidden --url ws://allowed.invalid/`, "net access to ws://allowed.invalid/ is not granted"],
    [`execute read_forbidden --path /etc/hostname`, "fs:read of /etc/hostname is not granted"],
  ];
  for (const [command, message] of cases) {
    const error = await refusal(desktop.input.execute(`<context app_id="${faulty}">${command}</context>`));
    expect(error.errorName).toBe("desktop-permission");
    expect(error.message).toBe(`E_PERMISSION: ${message} by this app's permissions`);
  }
});

test("snapshot registry: unknown ids are E_NOT_FOUND, evicted ones 'too old'", async () => {
  const desktop = await desktopWith("todo");
  const todo = findApplication(getSnapshot(desktop), "Todo");
  const first = desktop.snapshot().snapshot_id;
  for (let i = 0; i < SNAPSHOT_LIMIT; i++) getSnapshot(desktop);
  const old = await refusal(desktop.input.execute({ text: `<context app_id="${todo}">execute complete_todo --item todo_list[0]</context>`, snapshot_id: first }));
  expect(old.errorName).toBe("snapshot-too-old");
  expect(old.message).toContain("the desktop this command refers to was read too long ago (the desktop keeps its last 32 snapshots)");
  expect(old.message).not.toContain(first);
  expect(old.toJsonRpc().data).toMatchObject({ aotui: "E_NOT_FOUND", recoverable: true });
  const unknown = await refusal(desktop.input.execute({ text: `<context app_id="${todo}">execute complete_todo --item todo_list[0]</context>`, snapshot_id: "T999999" }));
  expect(unknown.errorName).toBe("desktop-not-found");
  const outOfRange = await refusal(desktop.input.execute(`<context app_id="${todo}">execute complete_todo --item todo_list[7]</context>`));
  expect(outOfRange.message).toBe("E_NOT_FOUND: todo_list[7] was not in the desktop you read (todo_list had 3 items: todo_list[0]..todo_list[2])");
  expect(unknown.message).not.toMatch(/\bT\d+\b/);
});

test("single writer: a second owner can neither acquire nor execute; release hands over", async () => {
  const desktop = await desktopWith();
  desktop.input.acquire("agent-A");
  desktop.input.acquire("agent-A");
  expect(() => desktop.input.acquire("agent-B")).toThrow('E_PERMISSION: the desktop\'s input is held by "agent-A"');
  const chat = `<context app_id="app_1">execute send_message --content hi</context>`;
  const byB = await refusal(desktop.input.execute({ text: chat, owner: "agent-B" }));
  expect(byB.errorName).toBe("desktop-locked");
  const anonymous = await refusal(desktop.input.execute(chat));
  expect(anonymous.message).toContain("pass your owner id");
  expect(() => desktop.input.release("agent-B")).toThrow("not \"agent-B\"");
  await desktop.input.execute({ text: chat, owner: "agent-A" });
  desktop.input.release("agent-A");
  desktop.input.acquire("agent-B");
  await desktop.input.execute({ text: chat, owner: "agent-B" });
  expect(getSnapshot(desktop)).toContain("2. [agent: hi](item:message_list[1])");
});

test("signals: app_opened, dom_mutation, app_closed, without payload", async () => {
  const desktop = await createDesktop({ apps: [`${APPS}/todo`] });
  const signals: UpdateSignal[] = [];
  let wake: () => void = () => {};
  const listener = (signal: UpdateSignal) => {
    signals.push(signal);
    wake();
  };
  desktop.output.subscribe(listener);
  const next = (reason: string) => new Promise<void>((done) => {
    const check = () => (signals.some((s) => s.reason === reason) ? done() : (wake = check));
    check();
  });
  await desktop.input.execute("<context>open --application app_3</context>");
  await next("app_opened");
  await desktop.input.execute(`<context app_id="app_3">execute add_todo --text "Feed the cat"</context>`);
  await next("dom_mutation");
  await desktop.input.execute("<context>close --application app_3</context>");
  await next("app_closed");
  for (const signal of signals) expect(Object.keys(signal).sort()).toEqual(["desktopId", "reason", "timestamp"]);
  expect(signals[0]).toMatchObject({ desktopId: desktop.id, reason: "app_opened" });
  desktop.output.unsubscribe(listener);
});

test("signals: dom_mutation bursts are coalesced into one", async () => {
  const stream = new SignalOutputStream("d");
  const seen: string[] = [];
  const first = new Promise<void>((done) => stream.subscribe((s) => { seen.push(s.reason); done(); }));
  stream.emit("dom_mutation");
  stream.emit("dom_mutation");
  stream.emit("dom_mutation");
  await first;
  stream.emit("app_opened");
  expect(seen).toEqual(["dom_mutation", "app_opened"]);
});

test("system apps cannot be closed; user messages arrive through say()", async () => {
  const desktop = await desktopWith();
  for (const app of ["app_1", "app_2"]) {
    const error = await refusal(desktop.input.execute(`<context>close --application ${app}</context>`));
    expect(error.errorName).toBe("desktop-permission");
    expect(error.message).toContain("is a system app and cannot be closed");
  }
  await desktop.say("Please tidy my todos");
  await desktop.input.execute(`<context app_id="app_2" view_id="view_002">execute record_thought --thought "user wants tidying"</context>`);
  const markup = getSnapshot(desktop);
  expect(markup).toContain("1. [user: Please tidy my todos](item:message_list[0])");
  expect(markup).toContain("1. [user wants tidying](item:thought_list[0])");
});

test("save → destroy → restore gives the same Markdown (app data through the apps' hooks)", async () => {
  const desktop = await desktopWith("todo", "mail");
  await desktop.say("hello");
  let markup = desktop.snapshot().markup;
  const mail = findApplication(markup, "Mail");
  const todo = findApplication(markup, "Todo");
  await desktop.input.execute(`<context app_id="${todo}">execute complete_todo --item ${findItem(markup, "Buy milk").ref}</context>`);
  await desktop.input.execute(`<context app_id="${todo}">execute rename_list --title "Saturday"</context>`);
  await desktop.input.execute(`<context app_id="${mail}">execute open_mail --mail ${findItem(markup, "Welcome aboard").ref}</context>`);
  await desktop.input.execute(`<context>hide --view ${findView(markup, mail, "Inbox")}</context>`);
  markup = getSnapshot(desktop);
  const state = JSON.parse(JSON.stringify(await serialize(desktop)));
  expect(state).toMatchObject({ id: desktop.id, createdAt: desktop.createdAt });
  expect(state.apps.find((a: any) => a.appId === "com.example.todo")).toMatchObject({ status: "running", mountedViews: ["view_003"], appData: { nextId: 4, title: "Saturday" } });
  destroyDesktop(desktop.id);
  expect(() => getSnapshot(desktop)).toThrow("has been destroyed");
  const back = await restore(state);
  expect(getSnapshot(back)).toBe(markup);
  expect(markup).toContain("[Saturday](entity:list_title)");
  expect(markup).toContain("# [Welcome aboard](entity:mail_subject)");
});

test("desktops are isolated", async () => {
  const a = await desktopWith("todo");
  const b = await desktopWith();
  await a.input.execute(`<context app_id="app_1">execute send_message --content only-in-a</context>`);
  expect(getSnapshot(a)).toContain("only-in-a");
  expect(getSnapshot(b)).not.toContain("only-in-a");
  expect(getSnapshot(b)).not.toContain("Todo");
});

test("the structured command of §5.5 ({app, operation, args, snapshot_id}) works like the text form", async () => {
  const desktop = await desktopWith("todo");
  const { snapshot_id } = desktop.snapshot();
  const ack = await desktop.input.execute({ app: "com.example.todo", operation: "complete_todo", args: { item: "todo_list[2]" }, snapshot_id });
  expect(ack).toMatchObject({ app: "app_3", view: "view_003", args: { item: { id: "t3" } }, stable_keys: ["t3"] });
  const wrong = await refusal(desktop.input.execute({ app: "app_3", operation: "add_todo", args: { text: 5 } }));
  expect(wrong.message).toContain("add_todo --text needs a value (string)");
});

test("restore refuses what is not a saved desktop, a desktop id in use, and a vanished app folder", async () => {
  const bad = await refusal(restore({} as any));
  expect(bad.message).toBe("E_INVALID_CMD: not a saved desktop state (needs id, createdAt, apps, installed)");
  const desktop = await desktopWith("todo");
  const state = await serialize(desktop);
  const inUse = await refusal(restore(state));
  expect(inUse.message).toContain(`desktop ${desktop.id} exists already`);
  destroyDesktop(desktop.id);
  const moved = JSON.parse(JSON.stringify(state));
  for (const app of [...moved.installed, ...moved.apps]) if (app.dir) app.dir = "/nonexistent/todo";
  const gone = await refusal(restore(moved));
  expect(gone.message).toContain("no app folder at /nonexistent/todo");
  expect(listDesktops()).toEqual([]);
});

test("an app whose script throws (or does not parse) at start fails to open with E_INTERNAL; the desktop lives", async () => {
  const { mkdtempSync, writeFileSync, mkdirSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const root = mkdtempSync(`${tmpdir()}/tw-badapp-`);
  const make = (name: string, code: string) => {
    mkdirSync(`${root}/${name}`);
    writeFileSync(`${root}/${name}/aoapp.json`, JSON.stringify({ id: `test.${name}`, name, version: "1.0.0", entry: "main.js" }));
    writeFileSync(`${root}/${name}/main.js`, code);
    return `${root}/${name}`;
  };
  const desktop = await createDesktop({ apps: [make("thrower", "throw new Error('no start for you')"), make("garbled", "let = = ;")] });
  const thrown = await refusal(desktop.input.execute("<context>open --application app_3</context>"));
  expect(thrown.message).toBe("E_INTERNAL: the app failed to start: no start for you");
  const garbled = await refusal(desktop.input.execute("<context>open --application app_4</context>"));
  expect(garbled.message).toStartWith("E_INTERNAL: the app failed to start: ");
  const markup = getSnapshot(desktop);
  expect(markup).toContain("app_3 (thrower) failed to open: E_INTERNAL: the app failed to start: no start for you");
  expect(markup).not.toContain('<application id="app_3"');
  await desktop.input.execute(`<context app_id="app_1">execute send_message --content still-here</context>`);
  rmSync(root, { recursive: true, force: true });
});
