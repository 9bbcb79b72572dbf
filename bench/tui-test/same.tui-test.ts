// Three tests written with @microsoft/tui-test; same.tuiwright.ts is the same in tuiwright.
import { test, expect } from "@microsoft/tui-test";

test.describe("bash", () => {
  test.use({ program: { file: "bash", args: ["--norc", "--noprofile"] }, rows: 12, columns: 60 });
  test("echo shows its output", async ({ terminal }) => {
    terminal.submit("echo hello-$((6*7))");
    await expect(terminal.getByText("hello-42", { full: false })).toBeVisible();
  });
});

test.describe("vim", () => {
  test.use({ program: { file: "vim", args: ["-u", "NONE", "-N", "-i", "NONE", "-n"] }, rows: 12, columns: 60 });
  test("insert mode and typed text, then the screen matches its golden", async ({ terminal }) => {
    await expect(terminal.getByText("~", { strict: false })).toBeVisible();
    terminal.write("i");
    await expect(terminal.getByText("-- INSERT --")).toBeVisible();
    terminal.write("hello");
    await expect(terminal.getByText("hello")).toBeVisible();
    await expect(terminal).toMatchSnapshot();
  });
});

test.describe("python", () => {
  test.use({ program: { file: "/usr/bin/python3", args: ["-q"] }, rows: 12, columns: 60 });
  test("the REPL answers", async ({ terminal }) => {
    await expect(terminal.getByText(">>>")).toBeVisible();
    terminal.submit("print(6*7)");
    await expect(terminal.getByText("42")).toBeVisible();
  });
});
