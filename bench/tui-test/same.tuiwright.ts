// The same three tests as same.tui-test.ts, written with the tuiwright library (bun test).
import { afterAll, describe, test } from "bun:test";
import { connect, expectSession } from "tuiwright";

const client = await connect();
afterAll(() => client.close());
const size = { cols: 60, rows: 12 };

describe("bash", () => {
  test("echo shows its output", async () => {
    await using bash = await client.spawn({ argv: ["bash", "--norc", "--noprofile"], ...size });
    await bash.type("echo hello-$((6*7))\r");
    await expectSession(bash).toShow("hello-42");
  });
});

describe("vim", () => {
  test("insert mode and typed text, then the screen matches its golden", async () => {
    await using vim = await client.spawn({ argv: ["vim", "-u", "NONE", "-N", "-i", "NONE", "-n"], ...size });
    await expectSession(vim).toShow(/^~/m);
    await vim.press("i", { wait: { text: ["-- INSERT --"] } });
    await vim.type("hello");
    await expectSession(vim).toShow("hello");
    await expectSession(vim).toMatchScreen("vim.snap");
  });
});

describe("python", () => {
  test("the REPL answers", async () => {
    await using py = await client.spawn({ argv: ["/usr/bin/python3", "-q"], ...size });
    await expectSession(py).toShow(">>>");
    await py.type("print(6*7)\r");
    await expectSession(py).toShow(/^42$/m);
  });
});
