import { expect, test } from "bun:test";
import { MaskedFeed, SecretMask } from "../../../lib/record/secret-mask.ts";

test("a secret split by a shell's redraw (fish) is masked character for character, the sequences kept", () => {
  const mask = new SecretMask();
  mask.add("echo Hunter2xyz\r");
  const fish = "echo \r\x1b[33CHunter2xyz\r\x1b[43C\x1b[15D\x1b[34mecho\x1b[30m\x1b(B\x1b[m \x1b[36mHunter2xyz\r";
  expect(mask.redact(fish)).toBe("*****\r\x1b[33C**********\r\x1b[43C\x1b[15D\x1b[34m****\x1b[30m\x1b(B\x1b[m*\x1b[36m**********\r");
  expect(mask.redact("echo Hunter2xy")).toBe("echo Hunter2xy"); // not the whole secret: not masked outside titles
  expect(mask.redact("\x1b]0;echo Hunter2 /tmp\x07")).toBe("\x1b]0;************ /tmp\x07"); // a title cut short
});

test("a secret split across reads is held back until it is whole, then masked; other text flows", () => {
  const mask = new SecretMask();
  const feed = new MaskedFeed(mask);
  expect(feed.push("before s3")).toBe("before s3"); // no secrets yet: nothing held
  mask.add("s3cret");
  expect(feed.push("x s3")).toBe("x ");
  expect(feed.push("\x1b[1mcr")).toBe("");
  expect(feed.push("et!")).toBe("**\x1b[1m****!");
  expect(feed.push("end s")).toBe("end ");
  expect(feed.flush()).toBe("s");
});
