// A scripted agent with no LLM: it only reads the desktop's Markdown and writes DSL commands.
// It finds things the way a model would — by the text it sees — and acts by the references
// printed next to them.

export type Located = { app: string; view: string; ref: string };

/** The app, view and item reference of the first item whose label contains `text`. */
export function findItem(markdown: string, text: string): Located {
  let app = "";
  let view = "";
  for (const line of markdown.split("\n")) {
    const a = /<application id="([^"]+)"/.exec(line);
    if (a) app = a[1]!;
    const v = /<view id="([^"]+)"/.exec(line);
    if (v) view = v[1]!;
    const item = /^\s*\d+\. \[(.*)\]\(item:([\w-]+\[\d+\])\)$/.exec(line);
    if (item && item[1]!.includes(text)) return { app, view, ref: item[2]! };
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
