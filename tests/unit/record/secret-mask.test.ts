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

test("a secret with anything a terminal draws nothing for between its characters is masked: NUL, C0/C1 controls, 7-bit and C1 sequences, strings", () => {
  const mask = new SecretMask();
  mask.add("hunter2");
  expect(mask.redact("h\0u\0n\0t\0e\0r\x002")).toBe("*\0*\0*\0*\0*\0*\0*");
  expect(mask.redact("hu\x7fn\x05t\u0085er2")).toBe("**\x7f*\x05*\u0085***");
  expect(mask.redact("hu\u009b31mnt\x1bP1$r\x1b\\er\u009d0;x\u009c2")).toBe("**\u009b31m**\x1bP1$r\x1b\\**\u009d0;x\u009c*");
  expect(mask.redact("hun\x1b7ter\x1b#82")).toBe("***\x1b7***\x1b#8*");
  expect(mask.redact("\u009d2;hunt /tmp\u009c")).toBe("\u009d2;**** /tmp\u009c"); // a C1 title cut short
  expect(mask.redact("hunter 2")).toBe("hunter 2"); // a space draws: not the secret
});
