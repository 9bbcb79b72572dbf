// The one escaping rule for every text the desktop's Markdown shows that it did not write itself:
// app and view names, headings, paragraphs, entities, list titles and items, operation labels and
// argument names, terminal screens, log lines, the operation log and error messages. Such text
// can never form a link, a tag, a view, an application or a line of its own:
// - line breaks become spaces where the text is inline (a label, a log line, a name);
// - control characters become their visible pictures (␛ for Escape), bidi overrides U+FFFD;
// - \ [ ] < > ` are backslash-escaped (CommonMark's escapes: the reader sees the character, a
//   parser sees no link, tag, autolink or code span);
// - a line that would start a heading, list item, quote, fence or setext line has that first
//   character escaped;
// - a text longer than its cap is cut, and says how much was left out.

const LINE_BREAKS = /\r\n|[\r\n\v\f\u0085\u2028\u2029]/g;
const CONTROLS = /[\x00-\x08\x0e-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069]/g;
const SPECIAL = /[\\[\]<>`]/g;

function picture(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return "\ufffd";
}

function capped(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** Text inside a line (a label, a name, a log line): one line, escaped, at most `max` characters. */
export function inlineText(text: string, max = 2000): string {
  return capped(text, max).replace(LINE_BREAKS, " ").replace(/\t/g, " ").replace(CONTROLS, picture).replace(SPECIAL, "\\$&");
}

/** A line of its own (a paragraph, a screen row): escaped as inline text, its leading spaces
 * kept, and a first character that would start Markdown structure escaped. */
export function lineText(text: string, max = 10_000): string {
  const escaped = inlineText(text.replace(/\t/g, "    "), max);
  // A heading (#), a quote (>), a list item (- + * 1. 1) before a space), a fence (~~~), a
  // thematic break or setext underline (a line of - = * _): the first mark loses its meaning.
  const block = /^(\s*)(?:(#|>|[-+*](?=\s|$)|~~~|[-=*_](?=[-=*_\s]*$))|(\d{1,9})([.)])(?=\s|$))/;
  return escaped.replace(block, (_all, space: string, mark: string | undefined, digits: string | undefined, dot: string | undefined) =>
    mark !== undefined ? `${space}\\${mark}` : `${space}${digits}\\${dot}`);
}

/** A value inside one of our tags' attributes (name="…"): inline text with no double quote, and
 * ‹ › for < > (a backslash means nothing inside an attribute; a tag must end at its own >). */
export function attributeText(text: string, max = 200): string {
  return inlineText(text, max).replace(/\\</g, "‹").replace(/\\>/g, "›").replace(/"/g, "'");
}

/** An id we print inside a reference, e.g. (operation:ID): only if it is an id. */
export const ID_SYNTAX = /^[A-Za-z_][\w.-]{0,127}$/;
