// The pieces of browser sessions that need no browser: the Carbonyl manifest on a drawn screen
// (what replays of a browser's cast still read), pixel glyphs, AWI-TTY keys and URLs, wheel
// encoding, and a narrowed screen's text.
import { afterEach, expect, test } from "bun:test";
import { BUILTIN_MANIFESTS } from "../../../lib/adapters/builtins.ts";
import { loadManifest } from "../../../lib/adapters/load-manifest.ts";
import { outlineFor } from "../../../lib/adapters/outline-for.ts";
import { browserUrl } from "../../../lib/browser/url.ts";
import { awiKey } from "../../../lib/protocol/compat/awi-tty.ts";
import { compactOutline } from "../../../lib/outline/compact.ts";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";
import { encodeWheel } from "../../../lib/terminal/mouse.ts";
import { textWithoutPixels } from "../../../lib/terminal/pixels.ts";
import { Screen } from "../../../lib/terminal/screen.ts";

let screen: Screen;
afterEach(() => screen?.dispose());

const manifests = BUILTIN_MANIFESTS.map(({ file, source }) => loadManifest(source, file));
const fg = (n: number) => `\x1b[38;5;${n};48;5;231m`;
const px = (n: number) => `${fg(231)}${"▄".repeat(n)}`;

/** A Carbonyl-like frame: nav bar (back enabled, forward greyed out), pixels, text and a link. */
async function carbonylScreen(): Promise<Screen> {
  screen = new Screen({ cols: 40, rows: 4, scrollback: 0 });
  const bar = `${fg(16)}[❮][${fg(251)}❯${fg(16)}][↻][ http://x.test/a ${" ".repeat(12)}]`;
  const row1 = `${px(2)}${fg(16)}Hello page${px(28)}`;
  const row2 = `${px(2)}${fg(16)}1. ${fg(21)}A link${fg(16)} (site)${px(22)}`;
  const row3 = px(40);
  await screen.write(`${bar}\r\n${row1}\r\n${row2}\r\n${row3}`);
  return screen;
}

test("the carbonyl manifest: buttons' state from their colour, the URL, text runs and links", async () => {
  const s = await carbonylScreen();
  const { adapter, pixels, nodes } = outlineFor(s.grid(), manifests, ["/opt/carbonyl", "--no-sandbox", "http://x.test/a"], null);
  expect(adapter).toBe("carbonyl");
  expect(pixels).toContain("▄");
  expect(compactOutline(nodes)).toEqual([
    '@carbonyl application',
    '  @carbonyl.nav toolbar "[❮][❯][↻]"',
    '  @carbonyl.back button "❮" = "enabled"',
    '  @carbonyl.forward button "❯" = "disabled"',
    '  @carbonyl.reload button "↻"',
    '  @carbonyl.url input "[ http://x.test/a ]" = "http://x.test/a"',
    "  @carbonyl.page document (4 items)",
    '    @e1 text "Hello page"',
    '    @e2 text "1."',
    '    @e3 link "A link"',
    '    @e4 text "(site)"',
  ]);
});

test("pixel glyphs leave the text in place; rows are trimmed and trailing blank rows dropped", () => {
  expect(textWithoutPixels("▄▄Hi▄▄\n▄▄▄▄\n▄▄", "▄")).toBe("  Hi");
  expect(textWithoutPixels("a▀b]c", "▀]")).toBe("a b c");
  expect(textWithoutPixels("keep ▄", "")).toBe("keep ▄");
});

test("AWI-TTY keys become tuiwright key names (meta apart from alt: the engine carries both); bad ones are invalid-key", () => {
  expect(awiKey("Tab", undefined, undefined)).toBe("Tab");
  expect(awiKey("Char", "q", ["ctrl"])).toBe("C-q");
  expect(awiKey("Left", undefined, { alt: true, shift: true, ctrl: false })).toBe("M-S-Left");
  expect(awiKey("Enter", undefined, ["meta", "alt"])).toBe("M-Meta-Enter");
  expect(awiKey("Char", "é", undefined)).toBe("é");
  // "ab" and "" are invalid-key (-32011), as an unknown key is: one code for one kind of mistake.
  expect(() => awiKey("Char", "ab", undefined)).toThrow('char must be exactly one character; got "ab"');
  expect(() => awiKey("Char", "", undefined)).toThrow("exactly one character");
  expect(() => awiKey("Char", undefined, undefined)).toThrow('key "Char" needs char');
  expect(() => awiKey("Tab", "x", undefined)).toThrow('char goes with key "Char"');
  try {
    awiKey("Char", undefined, undefined);
  } catch (error) {
    expect((error as TuiwrightError).code).toBe(-32011);
  }
});

test("URLs: absolute http(s)/file/data/about only, normalised as the URL bar shows them", () => {
  expect(browserUrl("http://127.0.0.1:8765")).toBe("http://127.0.0.1:8765/");
  expect(browserUrl(" https://example.com/a?b=1 ")).toBe("https://example.com/a?b=1");
  expect(browserUrl("about:blank")).toBe("about:blank");
  for (const bad of ["invalid://url", "example.com", "javascript:alert(1)", "http://"]) {
    let error: TuiwrightError | undefined;
    try {
      browserUrl(bad);
    } catch (e) {
      error = e as TuiwrightError;
    }
    expect(error?.errorName).toBe("bad-url");
    expect(error?.code).toBe(-32602);
    expect(error?.exitCode).toBe(65);
  }
});

test("the wheel: SGR buttons 64/65 once per step, refused without mouse input", () => {
  const sgr = { tracking: "any", encoding: "SGR" };
  expect(encodeWheel(4, 9, 2, sgr)).toBe("\x1b[<65;10;5M\x1b[<65;10;5M");
  expect(encodeWheel(0, 0, -1, sgr)).toBe("\x1b[<64;1;1M");
  expect(encodeWheel(0, 0, 1, { tracking: "vt200", encoding: "DEFAULT" })).toBe("\x1b[M\x61\x21\x21");
  expect(() => encodeWheel(0, 0, 1, { tracking: "none", encoding: "DEFAULT" })).toThrow("has not turned on mouse input");
});

test("a narrowed alternate screen's text stops at the new right edge (xterm keeps the old cells)", async () => {
  // The alternate screen does not reflow: a browser drawn at 140 columns, resized to 100.
  screen = new Screen({ cols: 30, rows: 2, scrollback: 0 });
  await screen.write(`\x1b[?1049h${"x".repeat(29)}]\r\nshort`);
  screen.resize(20, 2);
  for (const row of screen.text().split("\n")) expect(row.length).toBeLessThanOrEqual(20);
});
