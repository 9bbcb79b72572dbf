import { expect, test } from "bun:test";
import { PageFrameWatch } from "../../../lib/browser/page-frame-watch.ts";

const PIXELS = "▄▀▖▗▘▝▐▌▙▚▛▜▞▟█";
const bytes = (text: string) => new TextEncoder().encode(text);
// What Carbonyl wrote after a resize (recorded): its bar, then the page's pixels, then its text.
const BAR = "\x1b[?25l\x1b[?12l\x1b[1;1H\x1b[38;5;16m[❮][\x1b[38;5;251m❯\x1b[38;5;16m][↻][ http://127.0.0.1:18777/      ]";
const PIXEL_ROWS = "\x1b[?25l\x1b[?12l\x1b[2;1H\x1b[38;5;231m▄▄▄▄▄▄▄▄\x1b[3;1H▄▄▄▄▄▄▄▄\x1b[4;1H\x1b[48;5;255m▄▄▄▄   ▄▄▄▄";
const TEXT_ROWS = "\x1b[?25l\x1b[?12l\x1b[4;2H\x1b[38;5;16mTiny News\x1b[7;7H1. \x1b[38;5;21mTerminals are the new browser";

test("the bar alone is no page frame; pixels are a frame without the page's text; then its text", () => {
  const watch = new PageFrameWatch(PIXELS);
  watch.feed(bytes(BAR));
  expect([watch.pageWritten, watch.pageText]).toEqual([false, false]);
  watch.feed(bytes(PIXEL_ROWS));
  expect([watch.pageWritten, watch.pageText]).toEqual([true, false]);
  watch.feed(bytes(TEXT_ROWS));
  expect([watch.pageWritten, watch.pageText]).toEqual([true, true]);
});

test("text after the cursor moved back to the bar is the bar's", () => {
  const watch = new PageFrameWatch(PIXELS);
  watch.feed(bytes(`${PIXEL_ROWS}\x1b[1;12Hhttp://example.org/`));
  expect([watch.pageWritten, watch.pageText]).toEqual([true, false]);
});

test("a frame cut anywhere — inside an escape sequence or a UTF-8 glyph — reads the same", () => {
  const all = bytes(BAR + PIXEL_ROWS);
  for (let cut = 1; cut < all.length; cut++) {
    const watch = new PageFrameWatch(PIXELS);
    watch.feed(all.slice(0, cut));
    watch.feed(all.slice(cut));
    expect([cut, watch.pageWritten, watch.pageText]).toEqual([cut, true, false]);
  }
  const withText = bytes(PIXEL_ROWS + TEXT_ROWS);
  for (let cut = 1; cut < withText.length; cut++) {
    const watch = new PageFrameWatch(PIXELS);
    watch.feed(withText.slice(0, cut));
    watch.feed(withText.slice(cut));
    expect([cut, watch.pageText]).toEqual([cut, true]);
  }
});

test("without a pixel set every visible glyph below the bar is text", () => {
  const watch = new PageFrameWatch("");
  watch.feed(bytes("\x1b[2;1H▄"));
  expect(watch.pageText).toBe(true);
});
