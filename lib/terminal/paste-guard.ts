// Text inside a bracketed paste must not be able to end the paste early. Removing the markers
// once is not enough: "\e[20\e[201~1~" becomes "\e[201~" after one pass. One left-to-right
// pass that drops a marker as soon as the kept text ends with one leaves none behind (any new
// marker would have to end at the character just kept), in linear time.

export const BRACKETED_PASTE_START = "\x1b[200~";
export const BRACKETED_PASTE_END = "\x1b[201~";

export function withoutPasteMarkers(text: string): string {
  if (!text.includes("\x1b")) return text;
  const kept: string[] = [];
  for (const char of text) {
    kept.push(char);
    if (char !== "~" || kept.length < 6) continue;
    const tail = kept.slice(-6).join("");
    if (tail === BRACKETED_PASTE_END || tail === BRACKETED_PASTE_START) kept.length -= 6;
  }
  return kept.join("");
}

/** The bytes for pasting `text` into a program that enabled bracketed paste. */
export function bracketedPaste(text: string): string {
  return BRACKETED_PASTE_START + withoutPasteMarkers(text) + BRACKETED_PASTE_END;
}
