// A scripted agent with no LLM: it only reads the desktop's Markdown and writes DSL commands.
// It finds things the way a model would — by the text it sees — and acts by the references
// printed next to them.

export type Located = { app: string; view: string; ref: string };

/** The app, view and item reference of the first item whose label contains `text` (in `inApp`
 * when given). */
export function findItem(markdown: string, text: string, inApp?: string): Located {
  let app = "";
  let view = "";
  for (const line of markdown.split("\n")) {
    const a = /<application id="([^"]+)"/.exec(line);
    if (a) app = a[1]!;
    const v = /<view id="([^"]+)"/.exec(line);
    if (v) view = v[1]!;
    const item = /^\s*\d+\. \[(.*)\]\(item:([\w-]+\[\d+\])\)$/.exec(line);
    if (item && item[1]!.includes(text) && (inApp === undefined || app === inApp)) return { app, view, ref: item[2]! };
  }
  throw new Error(`the agent cannot see an item with ${JSON.stringify(text)} in:\n${markdown}`);
}

/** The app id (app_N) the Applications view gives for an app name. */
export function findApplication(markdown: string, name: string): string {
  const match = new RegExp(`- \\[${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\]\\(application:(app_\\d+)\\)`).exec(markdown);
  if (!match) throw new Error(`no application ${name} in view_1`);
  return match[1]!;
}

/** The view id of the app's view with that name. */
export function findView(markdown: string, app: string, name: string): string {
  const section = markdown.slice(markdown.indexOf(`<application id="${app}"`));
  const match = new RegExp(`<view id="(view_\\d+)", name="${name}"`).exec(section) ?? new RegExp(`\\[${name}\\]\\(view:(view_\\d+)\\)`).exec(section);
  if (!match) throw new Error(`no view ${name} in ${app}`);
  return match[1]!;
}

/** The one view section of an app, as the agent reads it. */
export function viewText(markdown: string, view: string): string {
  const start = markdown.indexOf(`<view id="${view}"`);
  if (start < 0) return "";
  return markdown.slice(start, markdown.indexOf("</view>", start));
}

/** What the desktop's Markdown means, read strictly: its views and applications, and the links
 * (kind:target) each view holds. Anything that is not our own structure or escaped text — a raw
 * `<`, a bracket outside a link, a tag out of place — is an error, so forged structure cannot
 * slip through as text. */
export type DesktopStructure = {
  apps: { id: string; name: string; state: string | null; operationLog: number }[];
  views: { id: string; name: string; app: string | null; state: string | null; links: string[] }[];
};

const LINK_TARGET = /^(item|list|entity|operation|application|view):[\w.:-]+(\[\d+\])?$/;

/** The links of one line of text; throws on anything unescaped that is not a well-formed link. */
export function strictLinks(line: string): string[] {
  const links: string[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\") { i++; continue; }
    if (c === "<" || c === ">") throw new Error(`raw ${c} in text: ${JSON.stringify(line)}`);
    if (c === "`") throw new Error(`raw backtick in text: ${JSON.stringify(line)}`);
    if (c === "]") throw new Error(`unmatched ] in text: ${JSON.stringify(line)}`);
    if (c !== "[") continue;
    // An item reference in our own hints (todo_list[0]) is text, not a link.
    const reference = /^\[\d+\](?!\()/.exec(line.slice(i));
    if (reference && /\w/.test(line[i - 1] ?? "")) { i += reference[0].length - 1; continue; }
    let j = i + 1;
    for (; j < line.length && line[j] !== "]"; j++) {
      if (line[j] === "\\") j++;
      else if (line[j] === "[" || line[j] === "<" || line[j] === "`") throw new Error(`raw ${line[j]} inside a link label: ${JSON.stringify(line)}`);
    }
    if (line[j] !== "]" || line[j + 1] !== "(") throw new Error(`a [ that is not a link: ${JSON.stringify(line)}`);
    const close = line.indexOf(")", j + 2);
    const target = line.slice(j + 2, close);
    if (close < 0 || !LINK_TARGET.test(target)) throw new Error(`a link with a bad target ${JSON.stringify(target)}: ${JSON.stringify(line)}`);
    links.push(target);
    i = close;
  }
  return links;
}

const TAG_VIEW = /^\s*<view id="([^"<>]*)", name="([^"<>]*)"(?:, state="([a-z-]+)")?>(<\/view>)?$/;
const TAG_APP = /^<application id="([^"<>]*)", name="([^"<>]*)"(?:, state="([a-z-]+)")?>$/;

export function parseDesktopStrict(markdown: string): DesktopStructure {
  const lines = markdown.split("\n");
  if (lines[0] !== "<desktop>" || lines.at(-1) !== "</desktop>") throw new Error("not a <desktop>…</desktop> document");
  const structure: DesktopStructure = { apps: [], views: [] };
  let app: DesktopStructure["apps"][number] | null = null;
  let view: DesktopStructure["views"][number] | null = null;
  let inLog = false;
  let fence = false;
  for (const [index, line] of lines.slice(1, -1).entries()) {
    const where = `line ${index + 2}`;
    if (view) {
      if (line.trim() === "</view>" && !fence) { view = null; continue; }
      if (view.id === "view_0") continue; // the runtime's own instructions
      if (/^\s*```$/.test(line)) { fence = !fence; continue; }
      view.links.push(...strictLinks(line));
      continue;
    }
    const v = TAG_VIEW.exec(line);
    if (v) {
      const entry = { id: v[1]!, name: v[2]!, app: app?.id ?? null, state: v[3] ?? null, links: [] as string[] };
      structure.views.push(entry);
      if (!v[4]) view = entry;
      continue;
    }
    if (inLog) {
      if (line === "    </operation_log>") { inLog = false; continue; }
      if (!/^    \d+\. /.test(line)) throw new Error(`${where}: not an operation log line: ${JSON.stringify(line)}`);
      if (strictLinks(line).length > 0) throw new Error(`${where}: a link in the operation log: ${JSON.stringify(line)}`);
      app!.operationLog++;
      continue;
    }
    if (app) {
      if (line === "</application>") { app = null; continue; }
      if (line === "    <operation_log></operation_log>") continue;
      if (line === "    <operation_log>") { inLog = true; continue; }
      if (line.trim() === "") continue;
      const links = strictLinks(line);
      if (links.some((l) => !l.startsWith("view:"))) throw new Error(`${where}: a link outside a view: ${JSON.stringify(line)}`);
      continue;
    }
    const a = TAG_APP.exec(line);
    if (a) {
      app = { id: a[1]!, name: a[2]!, state: a[3] ?? null, operationLog: 0 };
      structure.apps.push(app);
      continue;
    }
    if (line === "" || /^<!-- [^<>]* -->$/.test(line)) continue;
    throw new Error(`${where}: unexpected ${JSON.stringify(line)}`);
  }
  if (view || app || inLog || fence) throw new Error("the document ends inside a view, an application, a log or a fence");
  return structure;
}
