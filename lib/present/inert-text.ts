// Program output printed on a person's terminal must not act on that terminal. Text from a
// session (a block's output, a title, a program's error) may hold control characters: ESC and
// C1 controls (U+009B is CSI, U+009D OSC) set the title, clear the screen or move the cursor in
// the reader's terminal, xterm.js-based ones included. On a terminal they are shown instead:
// each C0 control but newline and tab, and DEL, as its Unicode control picture (ESC as ␛,
// CR as ␍), each C1 control as U+FFFD, as an undecodable byte already shows. Into a pipe or a
// file the text goes as it is (as `ls` quotes names only on a terminal). JSON output escapes
// them always: \u001b and \u009b read back as the same string, and no terminal acts on them.

const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `text` with every control character but newline and tab replaced by a visible stand-in. */
export function inertText(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    return code === 0x7f ? "\u2421" : "\ufffd";
  });
}

/** JSON.stringify whose text holds no control character: DEL and C1 escaped as \u00XX too. */
export function inertJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(/[\x7f-\x9f]/g, (char) => `\\u00${char.charCodeAt(0).toString(16)}`);
}
