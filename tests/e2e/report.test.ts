/// <reference lib="dom" />
// The HTML report in a real headless Chromium (Debian's, driven by playwright-core).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { decode } from "fast-png";
import { World } from "../helpers/harness.ts";

let world: World;
let browser: Browser;
beforeAll(async () => {
  world = await World.start();
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});
afterAll(async () => {
  await browser?.close();
  await world[Symbol.asyncDispose]();
});

test("report: loads without console errors, plays to the end showing the final screen, markers seek", async () => {
  const { name } = await world.spawn(["bash", "--norc", "--noprofile"], ["--cols", "60", "--rows", "8"]);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  await world.json(["type", "--session", name, "echo first-$((1+1))\r", "--wait-regex", "^first-2$"]);
  await world.json(["mark", "--session", name, "between the commands"]);
  await world.json(["type", "--session", name, "echo final-$((2+2))\r", "--wait-regex", "^final-4$"]);
  const cast = (await world.json(["get", "--session", name, "cast"])).value;
  await world.json(["kill", "--session", name]);

  const out = join(world.dir, "report.html");
  const written = await world.json(["report", cast, "-o", "report.html", "--title", "demo run"]);
  expect(written.report).toBe(out);
  const html = readFileSync(out, "utf8");
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/); // self-contained
  expect(html).toContain("between the commands");

  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  const problems: string[] = [];
  page.on("console", (message) => { if (message.type() === "error") problems.push(message.text()); });
  page.on("pageerror", (error) => problems.push(String(error)));
  await page.goto(`file://${out}`);
  await page.waitForFunction(() => (window as any).tuiwrightPlayer !== undefined, undefined, { timeout: 10_000 });
  // No failure: it opens on the last frame, before anything is played.
  await page.waitForFunction(() => document.getElementById("player")!.innerText.includes("final-4"), undefined, { timeout: 10_000 });
  expect(await page.textContent("#opened")).toMatch(/^opened at the end/);
  await page.evaluate(() => (window as any).tuiwrightPlayer.play());
  await page.waitForFunction(() => (window as any).tuiwrightEnded === true, undefined, { timeout: 20_000 });
  const screenText = await page.evaluate(() => document.getElementById("player")!.innerText);
  expect(screenText).toContain("final-4");
  const shot = join(world.dir, "report.png");
  await page.screenshot({ path: shot });
  const png = decode(readFileSync(shot));
  expect(png.width).toBe(1000);

  // Clicking the marker seeks the player to it (the player's getters return promises).
  const markerTime = Number(await page.getAttribute("#markers button", "data-time"));
  await page.click("#markers button");
  // The player moves its clock, resets the terminal and redraws up to the marker: wait for the
  // screen as it was at the marker (first command's output, not the second's).
  await page.waitForFunction(
    async (at) => {
      const text = document.getElementById("player")!.innerText;
      return Math.abs((await (window as any).tuiwrightPlayer.getCurrentTime()) - at) < 0.05 && text.includes("first-2") && !text.includes("final-4");
    },
    markerTime,
    { timeout: 10_000 },
  );
  expect(problems).toEqual([]);
  await page.close();
  expect(existsSync(shot)).toBe(true);
}, 60_000);

test("report opens on the first failed wait — the screen as it was then, the markers beside the player in view — or on the last frame", async () => {
  const { name } = await world.spawn(["bash", "--norc", "--noprofile"], ["--cols", "60", "--rows", "8"]);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  await world.json(["type", "--session", name, "echo before-$((1+1))\r", "--wait-regex", "^before-2$"]);
  const failed = await world.run(["type", "--session", name, "echo during-$((2+1))\r", "--wait-text", "never-shown", "--timeout", "300"]);
  expect(failed.code).toBe(124);
  await world.json(["type", "--session", name, "echo after-$((3+1))\r", "--wait-regex", "^after-4$"]);
  const cast = (await world.json(["get", "--session", name, "cast"])).value;
  await world.json(["kill", "--session", name]);
  await world.json(["report", cast, "-o", "failed.html"]);
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  await page.goto(`file://${join(world.dir, "failed.html")}`);
  await page.waitForFunction(() => document.getElementById("player")!.innerText.includes("before-2"), undefined, { timeout: 10_000 });
  const text = await page.evaluate(() => document.getElementById("player")!.innerText);
  expect(text).toContain("during-3"); // the frame the failed wait gave up on
  expect(text).not.toContain("after-4");
  expect(await page.textContent("#opened")).toMatch(/^opened at failed wait \d+/);
  const failure = await page.$("#first-failure");
  expect(await failure!.isVisible()).toBe(true);
  const box = (await failure!.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(700); // in view without scrolling
  const shot = process.env.TUIWRIGHT_REPORT_SHOT ?? join(world.dir, "failed.png");
  await page.screenshot({ path: shot });
  expect(decode(readFileSync(shot)).width).toBe(1200);
  await page.close();
}, 60_000);

test("report needs a cast and -o", async () => {
  expect((await world.run(["report", "x.cast"])).code).toBe(64);
  expect((await world.run(["report", "missing.cast", "-o", "x.html"])).code).toBe(66);
});
