import { expect, test } from "bun:test";
import { FlowControl } from "../../../lib/pty/flow-control.ts";

function fakePty(ixon: boolean) {
  return { written: [] as string[], ixon, write(data: string) { this.written.push(data); } };
}

const limits = { highWater: 100, lowWater: 20, hardCap: 1000 };

test("XOFF past the high-water mark, XON below the low-water mark, when IXON is set", () => {
  const pty = fakePty(true);
  const flow = new FlowControl(pty, limits);
  expect(flow.received(60)).toBe(true);
  expect(pty.written).toEqual([]);
  expect(flow.received(60)).toBe(true);
  expect(pty.written).toEqual(["\x13"]);
  expect(flow.paused).toBe(true);
  flow.received(50); // still paused: no second XOFF
  expect(pty.written).toEqual(["\x13"]);
  flow.parsed(100); // backlog 70: above low water
  expect(pty.written).toEqual(["\x13"]);
  flow.parsed(60); // backlog 10
  expect(pty.written).toEqual(["\x13", "\x11"]);
  expect(flow.paused).toBe(false);
  expect(flow.pauses).toBe(1);
});

test("no XOFF is ever sent to a raw-mode program; past the hard cap output is dropped and counted", () => {
  const pty = fakePty(false);
  const flow = new FlowControl(pty, limits);
  expect(flow.received(900)).toBe(true);
  expect(pty.written).toEqual([]);
  expect(flow.received(200)).toBe(false);
  expect(flow.dropped).toBe(200);
  flow.parsed(900);
  expect(flow.received(200)).toBe(true);
  expect(pty.written).toEqual([]);
});

test("no XON when the program turned IXON off while paused (it would arrive as a keystroke)", () => {
  const pty = fakePty(true);
  const flow = new FlowControl(pty, limits);
  flow.received(150);
  expect(pty.written).toEqual(["\x13"]);
  pty.ixon = false;
  flow.parsed(150);
  expect(pty.written).toEqual(["\x13"]);
  expect(flow.paused).toBe(false);
});
