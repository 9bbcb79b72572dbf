// The command language of §5: an outer <context app_id="…" view_id="…"> wrapper and an inner
// DSL line — `execute OP --key value --key="with spaces" --flag -k v`, or a system command
// (open/close/collapse/show --application, mount/dismount/hide/show --view).
import { desktopError } from "./aotui-codes.ts";

export type ParsedArg = { name: string; short: boolean; value: string | true };

export type ParsedCommand =
  | { kind: "execute"; app?: string; view?: string; operation: string; args: ParsedArg[] }
  | { kind: "system"; app?: string; view?: string; verb: SystemVerb; target: string; page?: number };

export type SystemVerb = "open" | "close" | "collapse" | "show-application" | "mount" | "dismount" | "hide" | "show-view" | "page";

const CONTEXT = /^\s*<context\b([^>]*)>([\s\S]*?)<\/context>\s*$/;
const ATTRIBUTE = /([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

function invalid(message: string): Error {
  return desktopError("invalid-command", message);
}

/** Parses one `<context …>COMMAND</context>`. */
export function parseContextCommand(text: string): ParsedCommand {
  const match = CONTEXT.exec(text);
  if (!match) throw invalid(`expected <context …>COMMAND</context>, got ${JSON.stringify(text.trim().slice(0, 80))}`);
  const attributes = parseAttributes(match[1]!);
  const body = match[2]!.trim();
  if (body === "") throw invalid("the <context> holds no command");
  if (body.includes("\n")) throw invalid("one command per <context>; send each command in its own <context>");
  return parseDsl(body, attributes.app_id, attributes.view_id);
}

function parseAttributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  let index = 0;
  while (index < source.length) {
    const skip = /[\s,]*/y;
    skip.lastIndex = index;
    skip.exec(source);
    index = skip.lastIndex;
    if (index >= source.length) break;
    ATTRIBUTE.lastIndex = index;
    const match = ATTRIBUTE.exec(source);
    if (!match) throw invalid(`bad <context> attributes: ${JSON.stringify(source.trim())}`);
    const name = match[1]!;
    if (name !== "app_id" && name !== "view_id") throw invalid(`unknown <context> attribute ${JSON.stringify(name)} (app_id and view_id are known)`);
    out[name] = match[2] ?? match[3] ?? "";
    index = ATTRIBUTE.lastIndex;
  }
  return out;
}

/** Escapes inside double quotes: \" \\ \n \r \t \e (Escape) \xHH \u{HEX}; any other backslash
 * stays as written (so "C:\dir" keeps its backslash). Single quotes take everything literally. */
function unescapeDouble(inner: string): string {
  return inner.replace(/\\(["\\nrte]|x[0-9A-Fa-f]{2}|u\{[0-9A-Fa-f]{1,6}\})/g, (_all, escape: string) => {
    switch (escape[0]) {
      case "n": return "\n";
      case "r": return "\r";
      case "t": return "\t";
      case "e": return "\x1b";
      case "x": return String.fromCharCode(parseInt(escape.slice(1), 16));
      case "u": {
        const code = parseInt(escape.slice(2, -1), 16);
        if (code > 0x10ffff) throw invalid(`\\${escape} is not a Unicode code point`);
        return String.fromCodePoint(code);
      }
      default: return escape;
    }
  });
}

/** Shell-like words: double quotes (with \ escapes) and single quotes group spaces. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"' || c === "'") {
      const end = c === "'" ? line.indexOf("'", i + 1) : closingDoubleQuote(line, i + 1);
      if (end < 0) throw invalid(`unclosed ${c} in ${JSON.stringify(line)}`);
      const inner = line.slice(i + 1, end);
      current += c === "'" ? inner : unescapeDouble(inner);
      inWord = true;
      i = end;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

function closingDoubleQuote(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === "\\") i++;
    else if (line[i] === '"') return i;
  }
  return -1;
}

export function parseDsl(line: string, app?: string, view?: string): ParsedCommand {
  const words = splitWords(line);
  const verb = words[0];
  if (verb === undefined) throw invalid("empty command");
  if (verb === "execute") {
    const operation = words[1];
    if (!operation || operation.startsWith("-")) throw invalid("execute needs an operation id: execute OP [--arg value …]");
    return { kind: "execute", app, view, operation, args: parseArgs(words.slice(2)) };
  }
  if (verb === "page") {
    const [flag, target, pageFlag, number, ...rest] = words.slice(1);
    if (flag !== "--view" || target === undefined || pageFlag !== "--page" || number === undefined || !/^\d{1,9}$/.test(number) || rest.length > 0) throw invalid("write: page --view <view_id> --page <n>");
    return { kind: "system", app, view, verb: "page", target, page: Number(number) };
  }
  const system = systemVerb(verb, words);
  if (!system) throw invalid(`unknown command ${JSON.stringify(verb)}: use execute, open, close, collapse, show, mount, dismount, hide or page`);
  const [flag, target, ...rest] = words.slice(1);
  if (flag !== `--${system.flag}` || target === undefined || rest.length > 0) throw invalid(`write: ${verb} --${system.flag} <${system.flag === "view" ? "view_id" : "app_id"}>`);
  return { kind: "system", app, view, verb: system.verb, target };
}

function systemVerb(verb: string, words: string[]): { verb: SystemVerb; flag: "application" | "view" } | null {
  switch (verb) {
    case "open": case "close": case "collapse": return { verb, flag: "application" };
    case "mount": case "dismount": case "hide": return { verb, flag: "view" };
    case "show": return words[1] === "--view" ? { verb: "show-view", flag: "view" } : { verb: "show-application", flag: "application" };
    default: return null;
  }
}

function parseArgs(words: string[]): ParsedArg[] {
  const args: ParsedArg[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const long = /^--([A-Za-z_][\w-]*)(?:=([\s\S]*))?$/.exec(word);
    const short = /^-([A-Za-z])$/.exec(word);
    if (!long && !short) throw invalid(`expected --name or -n before ${JSON.stringify(word)}`);
    const name = (long ? long[1] : short![1])!;
    if (long && long[2] !== undefined) {
      args.push({ name, short: false, value: long[2] });
      continue;
    }
    const next = words[i + 1];
    if (next === undefined || /^--?[A-Za-z]/.test(next)) args.push({ name, short: !!short, value: true });
    else {
      args.push({ name, short: !!short, value: next });
      i++;
    }
  }
  return args;
}
