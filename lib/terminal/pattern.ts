// User-supplied regexes: `SOURCE` or `/SOURCE/FLAGS`. A bad one is a bad-regex error at once.
// A bare SOURCE is line-oriented like grep (the `m` flag: ^ and $ match at each row), since
// screens are rows joined by \n; `/SOURCE/FLAGS` uses exactly the flags given.
import { TuiwrightError } from "../protocol/errors.ts";

const SLASHED = /^\/(.*)\/([dgimsuvy]*)$/s;

/** `/SOURCE/FLAGS` with valid flags: where a value may be text or a regex, only this is a regex
 * (a title or output like "/home/me/src" stays literal text). */
export function isSlashedPattern(text: string): boolean {
  return SLASHED.test(text);
}

/** `/SOURCE/LETTERS` whose letters are not all flags: a typo, never meant as a bare source. */
const BAD_FLAGS = /^\/(.*)\/([A-Za-z]+)$/s;

export function parsePattern(text: string): RegExp {
  const slashed = SLASHED.exec(text);
  const badFlags = slashed ? null : BAD_FLAGS.exec(text);
  if (badFlags) {
    throw new TuiwrightError("bad-regex", `invalid regex ${JSON.stringify(text)}: unknown flags ${JSON.stringify(badFlags[2])} (flags are d i m s u v)`, {
      hint: "write /SOURCE/FLAGS with valid flags; to match slashes literally, escape them: \\/",
      details: { pattern: text },
    });
  }
  const source = slashed ? slashed[1]! : text;
  const flags = (slashed ? slashed[2]! : "m").replace(/[gy]/g, ""); // stateless matching only
  try {
    return new RegExp(source, flags);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new TuiwrightError("bad-regex", `invalid regex ${JSON.stringify(text)}: ${why}`, { details: { pattern: text } });
  }
}

/** `/re/flags` is a regex; anything else is a literal substring. */
export function textOrPattern(text: string): (value: string) => boolean {
  if (SLASHED.test(text)) {
    const re = parsePattern(text);
    return (value) => re.test(value);
  }
  return (value) => value.includes(text);
}
