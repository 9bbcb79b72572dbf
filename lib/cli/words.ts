// Splits one batch line into words the way a POSIX shell would for simple commands: blanks
// separate, '…' is literal, "…" allows \" \\ \$ \` escapes, a backslash escapes one character
// outside quotes, and # starts a comment at the beginning of a word.
import { TuiwrightError } from "../protocol/errors.ts";

export function splitWords(line: string, where: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === " " || c === "\t") {
      if (inWord) { words.push(word); word = ""; inWord = false; }
    } else if (c === "#" && !inWord) {
      break;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new TuiwrightError("usage", `${where}: unterminated ' quote`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        word += line[j];
      }
      if (j >= line.length) throw new TuiwrightError("usage", `${where}: unterminated " quote`);
      i = j;
    } else if (c === "\\") {
      if (i + 1 >= line.length) throw new TuiwrightError("usage", `${where}: a line cannot end with \\`);
      word += line[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
