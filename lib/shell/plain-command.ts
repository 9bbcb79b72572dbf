// Most commands given to exec are plain lines — `make test`, `cd src && ls -la`, `git status |
// head` — that no bash or zsh parser can reject. Recognising them here saves starting the
// shell's parser (`bash -n`, ~2 ms of process start) before each one; anything with quotes,
// brackets, redirections, expansions, comments, several lines or a reserved word is not plain,
// and goes to the shell's own parser as before. Being wrong here would type a command the shell
// then rejects at its prompt, so the grammar is deliberately small.

/** Characters a plain word is made of: none of them is special to the bash or zsh parser. */
const WORD = /^[A-Za-z0-9_./:=+,@%~-]+$/;

/** Words that are syntax (or change parsing) in bash or zsh wherever they could stand. */
const RESERVED = new Set([
  "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done",
  "in", "function", "time", "coproc", "foreach", "end", "repeat", "always", "nocorrect", "noglob",
  "declare", "export", "local", "readonly", "typeset", "integer", "float",
]);

/** `command` is words separated by blanks, joined by `&&`, `||`, `|`, `;` or `&` with a
 * command on both sides (a final `;` or `&` allowed): it parses in bash and zsh. */
export function isPlainCommand(command: string): boolean {
  const tokens = command.trim().split(/[ \t]+|(&&|\|\||[|;&])/).filter((t) => t !== undefined && t !== "");
  let wordsInCommand = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === "&&" || token === "||" || token === "|" || token === ";" || token === "&") {
      if (wordsInCommand === 0) return false; // an operator with no command before it
      const last = i === tokens.length - 1;
      if (last && token !== ";" && token !== "&") return false; // `a &&`, `a |`: the shell waits for more
      wordsInCommand = 0;
      continue;
    }
    if (!WORD.test(token) || RESERVED.has(token)) return false;
    wordsInCommand++;
  }
  return tokens.length > 0 && (wordsInCommand > 0 || /[;&]$/.test(tokens.at(-1)!));
}
