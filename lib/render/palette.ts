// The xterm 256-colour palette, and the default colours we answer OSC 10/11 with.
export const DEFAULT_FG = "#e5e5e5";
export const DEFAULT_BG = "#000000";

const BASE16 = [
  "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
  "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
];
const LEVELS = [0, 95, 135, 175, 215, 255];
const hex = (n: number) => n.toString(16).padStart(2, "0");

export function paletteColour(index: number): string {
  if (index < 16) return BASE16[index]!;
  if (index < 232) {
    const i = index - 16;
    return `#${hex(LEVELS[Math.floor(i / 36)]!)}${hex(LEVELS[Math.floor(i / 6) % 6]!)}${hex(LEVELS[i % 6]!)}`;
  }
  const grey = 8 + (index - 232) * 10;
  return `#${hex(grey)}${hex(grey)}${hex(grey)}`;
}

export function colourOf(value: number | string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  return typeof value === "string" ? value : paletteColour(value);
}
