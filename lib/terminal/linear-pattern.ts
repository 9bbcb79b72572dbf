// Regexes that waits evaluate on every screen change run on RE2 (re2js): matching time is
// linear in the text, whatever the pattern, so `(a+)+$` over a row of a's cannot stall the
// session's thread and a wait's timeout holds. JavaScript syntax is accepted (RE2JS
// translates it); lookaround and backreferences have no linear-time form and are refused.
import { RE2JS } from "re2js";
import { TuiwrightError } from "../protocol/errors.ts";
import { isSlashedPattern, parsePattern } from "./pattern.ts";

export type LinearPattern = {
  readonly label: string;
  test(text: string): boolean;
  /** The first match: where it starts (UTF-16 index) and its text. */
  exec(text: string): { index: number; text: string } | null;
  /** `text` with every match replaced by what `replace` makes of it. */
  replaceAll(text: string, replace: (match: string) => string): string;
};

export function linearPattern(text: string): LinearPattern {
  const checked = parsePattern(text); // JavaScript syntax errors read as they always did
  let bits = 0;
  if (checked.flags.includes("i")) bits |= RE2JS.CASE_INSENSITIVE;
  if (checked.flags.includes("m")) bits |= RE2JS.MULTILINE;
  if (checked.flags.includes("s")) bits |= RE2JS.DOTALL;
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(checked.source), bits);
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new TuiwrightError("bad-regex", `regex ${JSON.stringify(text)} cannot be matched in linear time: ${why}`, {
      hint: "waits match regexes in linear time so a timeout always holds: lookahead, lookbehind and backreferences (\\1) are not available",
      details: { pattern: text },
    });
  }
  const label = String(checked);
  return {
    label,
    // RE2JS's own test asks for no captures, so it runs on its DFA: 3-6x faster than a
    // matcher's find (the NFA or backtracker), on the path of every wait's re-check.
    test: (value) => re.test(value),
    exec: (value) => {
      const matcher = re.matcher(value);
      return matcher.find() ? { index: matcher.start(), text: matcher.group() ?? "" } : null;
    },
    replaceAll: (value, replace) => {
      const matcher = re.matcher(value);
      let out = "";
      let last = 0;
      while (matcher.find()) {
        out += value.slice(last, matcher.start()) + replace(matcher.group() ?? "");
        last = matcher.end();
      }
      return out + value.slice(last);
    },
  };
}

/** `/re/flags` is a (linear-time) regex; anything else is a literal substring. */
export function linearTextOrPattern(text: string): (value: string) => boolean {
  if (isSlashedPattern(text)) {
    const re = linearPattern(text);
    return (value) => re.test(value);
  }
  return (value) => value.includes(text);
}
