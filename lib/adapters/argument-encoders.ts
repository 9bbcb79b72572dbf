// How an operation's argument is typed into its program so that it stays the data it is: each
// encoder either returns the keystrokes that mean exactly the value in the place the template
// puts it, or refuses the value (E_INVALID_ARG) when the program has no way to take it inertly.
// Every encoder's output is printable text: a control character (C0, DEL, C1) is never typed,
// because in a terminal program it is a key (Enter, Escape, Ctrl-V …), not a character.
import { TuiwrightError } from "../protocol/errors.ts";

export const ENCODERS = ["text", "code", "vim-path", "vim-string", "vim-line", "less-pattern", "digits"] as const;

export type EncoderName = (typeof ENCODERS)[number];

/** What each encoder is for (docs, and the fuzz test's idea of what an argument may do). */
export const ENCODER_MEANING: Record<EncoderName, string> = {
  text: "printable text typed as is (control characters refused)",
  code: "a command or code the operation runs by design, typed as is (control characters refused: it is one line)",
  "vim-path": "a file name on vim's command line, escaped as fnameescape() does (control characters refused)",
  "vim-string": "any text as a vim double-quoted string literal (every character outside printable ASCII as \\u escape)",
  "vim-line": "one line of text as a vim string literal (line breaks refused)",
  "less-pattern": "a search pattern at less's / prompt (a leading ! * @ taken literally; control characters refused)",
  digits: "a number such as a PID (anything but digits refused)",
};

const CONTROL = /[\x00-\x1f\x7f-\x9f]/;

function refuse(what: string, value: string, why: string): TuiwrightError {
  const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 79)}…` : value);
  return new TuiwrightError("invalid-argument", `${what} ${shown} cannot be typed safely: ${why}`, {
    hint: "pass the value without control characters (line breaks, Escape, Ctrl-…), or use another operation",
  });
}

function controlName(value: string): string {
  const c = CONTROL.exec(value)![0].charCodeAt(0);
  const named: Record<number, string> = { 0x0a: "a line break (LF)", 0x0d: "a carriage return (CR)", 0x1b: "Escape", 0x09: "a tab", 0x7f: "DEL" };
  return named[c] ?? `the control character U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
}

function noControls(what: string, value: string): void {
  if (CONTROL.test(value)) throw refuse(what, value, `it contains ${controlName(value)}, which the program would take as a key`);
}

/** vim's fnameescape(): these are special on the command line (wildcards, %, #, |, !, …). */
const VIM_PATH_SPECIAL = new Set([..." \t\n*?[{`$\\%#'\"|!<"]);

function vimPath(what: string, value: string): string {
  if (value === "") throw refuse(what, value, "a file name cannot be empty");
  noControls(what, value);
  let out = "";
  for (const ch of value) out += VIM_PATH_SPECIAL.has(ch) ? `\\${ch}` : ch;
  // A leading + would be `:e +cmd`, a leading > an append (`:w >>`), a lone - the previous file.
  if (out.startsWith("+") || out.startsWith(">") || out === "-") out = `\\${out}`;
  return out;
}

function vimString(what: string, value: string, oneLine: boolean): string {
  if (value.includes("\0")) throw refuse(what, value, "vim strings cannot hold NUL");
  if (oneLine && /[\r\n\u2028\u2029\x85\v\f]/.test(value)) throw refuse(what, value, "it is one line of text and this value has a line break");
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (code >= 0x20 && code <= 0x7e) out += ch;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += `\\U${code.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}

function lessPattern(what: string, value: string): string {
  noControls(what, value);
  // At less's search prompt a leading ! (invert), * (all files) or @ (first file) is a
  // modifier, not part of the pattern; a one-character class keeps it a literal character.
  return value.replace(/^[!*@]/, (c) => `[${c}]`);
}

/** The keystrokes for `value` encoded as `encoder`; `what` names the argument in errors. */
export function encodeArgument(encoder: EncoderName, what: string, value: string): string {
  switch (encoder) {
    case "text":
    case "code":
      noControls(what, value);
      return value;
    case "vim-path":
      return vimPath(what, value);
    case "vim-string":
      return vimString(what, value, false);
    case "vim-line":
      return vimString(what, value, true);
    case "less-pattern":
      return lessPattern(what, value);
    case "digits":
      if (!/^\d{1,12}$/.test(value)) throw refuse(what, value, "it must be digits only");
      return value;
  }
}
