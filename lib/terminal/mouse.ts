// Mouse clicks as the program asked to receive them (DECSET 1000/1002/1003 tracking, with the
// SGR 1006 or the original X10 byte encoding). Clicking a program that did not ask for mouse
// input would type escape codes into it, so that is refused.
import { TuiwrightError } from "../protocol/errors.ts";

export type MouseModes = { tracking: string; encoding: string };

const BUTTONS = { left: 0, middle: 1, right: 2 } as const;
export type MouseButton = keyof typeof BUTTONS;

/** Press and release at a 0-based cell. */
export function encodeClick(row: number, col: number, button: MouseButton, modes: MouseModes): string {
  if (modes.tracking === "none") {
    throw new TuiwrightError("bad-data", "the program has not turned on mouse input, so a click would arrive as typed escape codes", {
      hint: "use press/type to reach it with the keyboard",
    });
  }
  const b = BUTTONS[button];
  const x = col + 1;
  const y = row + 1;
  if (modes.encoding === "SGR") return `\x1b[<${b};${x};${y}M\x1b[<${b};${x};${y}m`;
  if (modes.encoding !== "DEFAULT") throw new TuiwrightError("bad-data", `mouse encoding ${modes.encoding} is not supported`);
  if (x > 223 || y > 223) throw new TuiwrightError("bad-data", `cell ${row},${col} is beyond what the X10 mouse encoding can express (223)`);
  const cell = (code: number) => `\x1b[M${String.fromCharCode(32 + code, 32 + x, 32 + y)}`;
  return modes.tracking === "x10" ? cell(b) : cell(b) + cell(3);
}

/** Mouse wheel steps at a 0-based cell: delta > 0 turns it down (buttons 64 up / 65 down). */
export function encodeWheel(row: number, col: number, delta: number, modes: MouseModes): string {
  if (modes.tracking === "none") {
    throw new TuiwrightError("bad-data", "the program has not turned on mouse input, so the wheel would arrive as typed escape codes", {
      hint: "scroll with press PageDown/PageUp instead",
    });
  }
  const b = delta > 0 ? 65 : 64;
  const x = col + 1;
  const y = row + 1;
  let one: string;
  if (modes.encoding === "SGR") one = `\x1b[<${b};${x};${y}M`;
  else if (modes.encoding !== "DEFAULT") throw new TuiwrightError("bad-data", `mouse encoding ${modes.encoding} is not supported`);
  else if (x > 223 || y > 223) throw new TuiwrightError("bad-data", `cell ${row},${col} is beyond what the X10 mouse encoding can express (223)`);
  else one = `\x1b[M${String.fromCharCode(32 + b, 32 + x, 32 + y)}`;
  return one.repeat(Math.abs(delta));
}
