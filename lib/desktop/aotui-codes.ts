// The AOTUI document's five error codes (§8) on top of our one error table: every desktop
// failure is a TuiwrightError whose message starts with its E_* code and whose data carries
// `aotui` and `recoverable`, so JSON-RPC clients see §8.2's shape and the CLI its exit code.
import { TuiwrightError, type ErrorName } from "../protocol/errors.ts";

export type AotuiCode = "E_INVALID_CMD" | "E_NOT_FOUND" | "E_PERMISSION" | "E_TIMEOUT" | "E_INTERNAL";

const RECOVERABLE: Record<AotuiCode, boolean> = {
  E_INVALID_CMD: true,
  E_NOT_FOUND: true,
  E_PERMISSION: false,
  E_TIMEOUT: true,
  E_INTERNAL: false,
};

/** Which AOTUI code each of our error names reports. */
const AOTUI_CODE_OF: Partial<Record<ErrorName, AotuiCode>> = {
  "invalid-command": "E_INVALID_CMD",
  "bad-app-manifest": "E_INVALID_CMD",
  "desktop-not-found": "E_NOT_FOUND",
  "snapshot-too-old": "E_NOT_FOUND",
  "desktop-permission": "E_PERMISSION",
  "desktop-locked": "E_PERMISSION",
  timeout: "E_TIMEOUT",
  "app-failed": "E_INTERNAL",
  internal: "E_INTERNAL",
};

export function aotuiCodeOf(name: ErrorName): AotuiCode {
  return AOTUI_CODE_OF[name] ?? "E_INTERNAL";
}

/** A desktop error: "E_CODE: message", with data.aotui and data.recoverable. */
export function desktopError(name: ErrorName, message: string, details: Record<string, unknown> = {}, hint?: string): TuiwrightError {
  const code = aotuiCodeOf(name);
  return new TuiwrightError(name, `${code}: ${message}`, { hint, details: { aotui: code, recoverable: RECOVERABLE[code], ...details } });
}
