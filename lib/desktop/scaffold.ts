// `tuiwright desktop new-app DIR`: a minimal working HTML5 app — aoapp.json and one view with
// a list (items with key and data-value) and operations — that a desktop can open at once.
// The folder is code, so it is made the way a desktop will accept it: ours, writable only by us
// (an existing empty folder another user made is refused), the files new (never replacing one).
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";
import { checkCodeFolder } from "../runtime/owned-dir.ts";
import { writeOutputFile } from "../runtime/output-file.ts";

export function scaffoldApp(dir: string): { dir: string; id: string; files: string[] } {
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new TuiwrightError("bad-data", `${target} exists and is not empty`, { hint: "give a new or empty directory" });
  }
  const word = basename(target).toLowerCase().replace(/[^a-z0-9]+/g, "") || "app";
  const id = `com.example.${/^[a-z]/.test(word) ? word : `app${word}`}`;
  const name = basename(target).replace(/[-_]+/g, " ").replace(/^\w/, (c) => c.toUpperCase());
  mkdirSync(target, { recursive: true, mode: 0o755 });
  checkCodeFolder(target, "app folder", "give a new directory, or one of yours that only you can write");
  const manifest = { id, name, version: "0.1.0", entry: "main.js", system: false, permissions: [] as string[] };
  // 0644, as an editor makes source files: readable, writable only by us (what a desktop accepts).
  writeOutputFile(join(target, "aoapp.json"), `${JSON.stringify(manifest, null, 2)}\n`, { replace: false, mode: 0o644 });
  writeOutputFile(join(target, "main.js"), MAIN_JS, { replace: false, mode: 0o644 });
  return { dir: target, id, files: ["aoapp.json", "main.js"] };
}

const MAIN_JS = `// An AOTUI app: plain DOM with semantic attributes; the runtime shows it to the agent as
// Markdown and turns the agent's commands into "aotui:operation" events on the view.
let items = [{ id: "i1", text: "First item" }];
let next = 2;

document.body.setAttribute("view", "Main");
document.body.innerHTML = \`
  <h1 entity="title:app_title">Items</h1>
  <ul list="item[]:item_list"></ul>
  <button operation="add_item" args='{"text": "string"}'>Add</button>
  <button operation="remove_item" args='{"item": "item"}'>Remove</button>\`;

function render() {
  const list = document.querySelector("ul");
  list.innerHTML = "";
  for (const item of items) {
    const li = document.createElement("li");
    li.setAttribute("key", item.id);
    li.setAttribute("data-value", JSON.stringify({ id: item.id }));
    li.textContent = item.text;
    list.appendChild(li);
  }
}

document.body.addEventListener("aotui:operation", (event) => {
  const { operation, args } = event.detail;
  if (operation === "add_item") items.push({ id: "i" + next++, text: args.text });
  if (operation === "remove_item") items = items.filter((item) => item.id !== args.item.id);
  render();
});

// Saved and restored with the desktop (tuiwright desktop save / restore).
aotui.onSerialize(() => ({ items, next }));
aotui.onRestore((data) => { items = data.items; next = data.next; render(); });

render();
`;
