// What a paste delivers, as a careful terminal does it. A paste is text from somewhere else (a
// page, a mail, a file): none of it may act as a key. Inside a bracketed paste the shell holds
// the text until Enter, but the tty driver does not: Ctrl-C, Ctrl-Z and Ctrl-\ raise signals
// that end readline's paste, and what follows them runs as typed (bash, zsh and fish all do
// this). So a paste keeps printable text, tab and line breaks, and leaves out every other C0
// control (ESC among them: no paste marker can form), DEL and the C1 controls U+0080–U+009F.
// Terminals do the like: xterm turns NUL, BS, ENQ, EOT, ESC, DEL and the tty's special
// characters into spaces (its disallowedPasteControls) and drops C1 bytes; Windows Terminal
// strips control characters. Left out, not turned into spaces: the text arrives as it was,
// minus what could act as a key (the result counts them).
// Line breaks go as CR, the byte Enter sends: CRLF and LF each become one CR, as xterm.js
// does (xterm turns every LF into CR, so its CRLF is two). Inside a bracketed paste bash, zsh
// and fish keep a CR as a line break of the pasted text: it does not run the line
// (tests/security/paste.test.ts).

export const BRACKETED_PASTE_START = "\x1b[200~";
export const BRACKETED_PASTE_END = "\x1b[201~";

const LINE_BREAK_OR_CONTROL = /\r\n|\n|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/** The text a paste sends, and how many control characters it left out. */
export function pasteText(text: string): { text: string; removed: number } {
  let removed = 0;
  const sent = text.replace(LINE_BREAK_OR_CONTROL, (found) => {
    if (found === "\n" || found === "\r\n") return "\r";
    removed++;
    return "";
  });
  return { text: sent, removed };
}

/** The bytes for pasting text (already through pasteText) into a program that enabled bracketed paste. */
export function bracketed(text: string): string {
  return BRACKETED_PASTE_START + text + BRACKETED_PASTE_END;
}
