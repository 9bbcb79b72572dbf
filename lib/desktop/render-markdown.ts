// The Markdown the agent reads (§4.1): <desktop> with view_0 (instructions and system
// commands), view_1 (installed applications), view_2 (system logs), then every open
// application with its <operation_log> and its mounted views.
import type { Block, OperationSpec, ViewModel } from "./view-model.ts";

export type RenderedView = { id: string; model: ViewModel; mounted: boolean; hidden: boolean };

export type RenderedApp = {
  alias: string;
  name: string;
  state: "running" | "collapsed" | "crashed" | "starting";
  note?: string;
  operationLog: readonly string[];
  views: RenderedView[];
};

export type RenderInput = {
  installed: { alias: string; name: string }[];
  logs: readonly { number: number; text: string }[];
  apps: RenderedApp[];
};

const SYSTEM_INSTRUCTIONS = `# System Instructions
Here is your TUI computer desktop. Every open application shows its views below; act on them with one command per <context>.
- An application command names its app and view: <context app_id="app_1" view_id="view_001">execute send_message --content "Hi"</context>
- Arguments: --key value, --key="value with spaces", --flag (true), -k value. An item argument takes a reference such as message_list[0].
- A desktop command needs no ids: <context>open --application app_3</context>

## System Command
- open --application <app_id>
- close --application <app_id>
- collapse --application <app_id>
- show --application <app_id>
- mount --view <view_id>
- dismount --view <view_id>
- hide --view <view_id>
- show --view <view_id>`;

/** [text] escaped so it stays one Markdown link label on one line. */
export function linkText(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\[/g, "\\[").replace(/\]/g, "\\]");
}

function blockLines(block: Block, out: string[]): void {
  switch (block.kind) {
    case "heading": {
      const text = block.entity ? `[${linkText(block.text)}](entity:${block.entity})` : block.text;
      out.push(`${"#".repeat(block.level)} ${text}`);
      return;
    }
    case "text":
      out.push(block.entity ? `[${linkText(block.text)}](entity:${block.entity})` : block.text);
      return;
    case "list":
      out.push("");
      out.push(`# [${linkText(block.title)}](list:${block.id})`);
      block.items.forEach((item, i) => out.push(`${i + 1}. [${linkText(item.label)}](item:${block.id}[${i}])`));
      if (block.items.length === 0) out.push("(no items)");
      out.push("");
      return;
  }
}

function operationLines(operations: OperationSpec[], out: string[]): void {
  if (operations.length === 0) return;
  out.push("# Operation");
  for (const op of operations) {
    out.push(`- [${linkText(op.label)}](operation:${op.id})`);
    if (op.args.length === 0) continue;
    out.push("    - Arguments:");
    for (const arg of op.args) out.push(`        - ${arg.name}: ${arg.type}${arg.optional ? " (optional)" : ""}`);
  }
}

const viewCache = new WeakMap<ViewModel, string>();

/** A mounted, shown view's body (cached per model: models are immutable). */
export function renderViewBody(model: ViewModel): string {
  const cached = viewCache.get(model);
  if (cached !== undefined) return cached;
  const lines: string[] = [];
  for (const block of model.blocks) blockLines(block, lines);
  if (lines.at(-1) !== "" && model.operations.length > 0) lines.push("");
  operationLines(model.operations, lines);
  while (lines[0] === "") lines.shift();
  while (lines.at(-1) === "") lines.pop();
  const text = lines.map((line) => (line === "" ? "" : `        ${line}`)).join("\n");
  viewCache.set(model, text);
  return text;
}

export function renderDesktop(input: RenderInput): string {
  const out: string[] = ["<desktop>", "<!-- View 0: System Instructions & Global Commands -->", `<view id="view_0", name="System Instructions">`, SYSTEM_INSTRUCTIONS, "</view>", ""];
  out.push("<!-- View 1: App Definitions -->", `<view id="view_1", name="Applications">`, "# Installed Applications");
  for (const app of input.installed) out.push(`- [${linkText(app.name)}](application:${app.alias})`);
  out.push("</view>", "", "<!-- View 2: Global Logs -->", `<view id="view_2", name="System Logs">`);
  for (const log of input.logs) out.push(`${log.number}. ${log.text}`);
  out.push("</view>", "", "<!-- Active Applications -->");
  for (const app of input.apps) {
    const state = app.state === "running" ? "" : `, state="${app.state}"`;
    out.push(`<application id="${app.alias}", name="${app.name.replace(/"/g, "'")}"${state}>`);
    if (app.note) out.push(`    ${app.note}`);
    if (app.operationLog.length === 0) out.push("    <operation_log></operation_log>");
    else out.push("    <operation_log>", ...app.operationLog.map((line, i) => `    ${i + 1}. ${line}`), "    </operation_log>");
    if (app.state === "running") {
      const dismounted = app.views.filter((v) => !v.mounted);
      if (dismounted.length > 0) out.push(`    Dismounted views: ${dismounted.map((v) => `[${linkText(v.model.name)}](view:${v.id})`).join(", ")}`);
      for (const view of app.views) {
        if (!view.mounted) continue;
        out.push("    ");
        if (view.hidden) {
          out.push(`    <view id="${view.id}", name="${view.model.name.replace(/"/g, "'")}", state="hidden"></view>`);
          continue;
        }
        out.push(`    <view id="${view.id}", name="${view.model.name.replace(/"/g, "'")}">`);
        const body = renderViewBody(view.model);
        if (body) out.push(body);
        out.push("    </view>");
      }
    }
    out.push("</application>");
  }
  out.push("</desktop>");
  return out.join("\n");
}
