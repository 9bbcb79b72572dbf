// The AOTUI document's error codes (§8) on top of our one error table: every desktop failure is
// a TuiwrightError whose message starts with its E_* code and whose data carries `aotui` and
// `recoverable`, so JSON-RPC clients see §8.2's shape and the CLI its exit code.
//
// Beyond §8's five codes (additive; `recoverable` tells a client that knows none of them what to
// do): E_INVALID_ARG (an argument the program cannot take as meant), E_REFUSED (the application
// refused, with its own message: vim's E37, an app's "division by zero") and E_BUSY (someone
// else holds the session or the app is still busy with an earlier operation).
import { asTuiwrightError, TuiwrightError, type ErrorName } from "../protocol/errors.ts";

export type AotuiCode = "E_INVALID_CMD" | "E_NOT_FOUND" | "E_PERMISSION" | "E_TIMEOUT" | "E_INTERNAL" | "E_INVALID_ARG" | "E_REFUSED" | "E_BUSY";

const RECOVERABLE: Record<AotuiCode, boolean> = {
  E_INVALID_CMD: true,
  E_NOT_FOUND: true,
  E_PERMISSION: false,
  E_TIMEOUT: true,
  E_INTERNAL: false,
  E_INVALID_ARG: true,
  E_REFUSED: true,
  E_BUSY: true,
};

/** Which AOTUI code each of our error names reports. */
const AOTUI_CODE_OF: Partial<Record<ErrorName, AotuiCode>> = {
  "invalid-command": "E_INVALID_CMD",
  "bad-app-manifest": "E_INVALID_CMD",
  "invalid-key": "E_INVALID_CMD",
  usage: "E_INVALID_ARG",
  "bad-data": "E_INVALID_ARG",
  "invalid-argument": "E_INVALID_ARG",
  "desktop-not-found": "E_NOT_FOUND",
  "snapshot-too-old": "E_NOT_FOUND",
  "no-such-session": "E_NOT_FOUND",
  "session-exited": "E_NOT_FOUND",
  "stale-ref": "E_NOT_FOUND",
  "desktop-permission": "E_PERMISSION",
  "desktop-locked": "E_PERMISSION",
  permission: "E_PERMISSION",
  timeout: "E_TIMEOUT",
  "app-refused": "E_REFUSED",
  busy: "E_BUSY",
  "app-failed": "E_INTERNAL",
  internal: "E_INTERNAL",
};

export function aotuiCodeOf(name: ErrorName): AotuiCode {
  return AOTUI_CODE_OF[name] ?? "E_INTERNAL";
}

/** A desktop error: "E_CODE: message", with data.aotui and data.recoverable (the code's own
 * unless `recoverable` says otherwise: an E_TIMEOUT whose operation may still apply is not). */
export function desktopError(name: ErrorName, message: string, details: Record<string, unknown> = {}, hint?: string, recoverable?: boolean): TuiwrightError {
  const code = aotuiCodeOf(name);
  return new TuiwrightError(name, `${code}: ${message}`, { hint, details: { aotui: code, recoverable: recoverable ?? RECOVERABLE[code], ...details } });
}

/** Any error as a desktop error in §8's shape (its name, so its exit code, kept). */
export function asDesktopError(error: unknown): TuiwrightError {
  const known = asTuiwrightError(error);
  if (typeof known.details.aotui === "string") return known;
  const code = aotuiCodeOf(known.errorName);
  const message = known.message.startsWith(`${code}: `) ? known.message : `${code}: ${known.message}`;
  return new TuiwrightError(known.errorName, message, { hint: known.hint, details: { ...known.details, aotui: code, recoverable: RECOVERABLE[code] } });
}
