// The trusted-directory routine: what it creates, and each thing it refuses.
import { expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureOwnedDir, ownedDirExists } from "../../../lib/runtime/owned-dir.ts";
import { homeDir, stateLocation } from "../../../lib/runtime/paths.ts";

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "tw-owned-"));
  chmodSync(dir, 0o700);
  return dir;
}

test("creates every missing directory below the root 0700", () => {
  const root = scratch();
  try {
    const path = ensureOwnedDir({ base: root, path: `${root}/a/b/c` });
    expect(path).toBe(`${root}/a/b/c`);
    for (const dir of ["a", "a/b", "a/b/c"]) expect(lstatSync(join(root, dir)).mode & 0o777).toBe(0o700);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("refuses a symlink, a group-writable directory and a file on the way down", () => {
  const root = scratch();
  try {
    mkdirSync(join(root, "elsewhere"), { mode: 0o700 });
    symlinkSync(join(root, "elsewhere"), join(root, "link"));
    expect(() => ensureOwnedDir({ base: root, path: `${root}/link/x` })).toThrow(`refusing directory ${root}/link: it is a symlink`);
    mkdirSync(join(root, "loose"));
    chmodSync(join(root, "loose"), 0o775);
    expect(() => ensureOwnedDir({ base: root, path: `${root}/loose/x` }, "state directory")).toThrow(`refusing state directory ${root}/loose: mode 775 lets others write to it`);
    Bun.write(join(root, "file"), "");
    expect(() => ownedDirExists({ base: root, path: `${root}/file` })).toThrow("it is not a directory");
    expect(ownedDirExists({ base: root, path: `${root}/missing/x` })).toBe(false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a root writable by others is refused, even when sticky like /tmp", () => {
  const root = scratch();
  try {
    chmodSync(root, 0o1777);
    expect(() => ensureOwnedDir({ base: root, path: `${root}/tuiwright` })).toThrow("lets others write to it");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("with no HOME and no XDG variable the home comes from the passwd entry, never TMPDIR", () => {
  const saved = { HOME: process.env.HOME, XDG: process.env.XDG_STATE_HOME, TMPDIR: process.env.TMPDIR };
  try {
    delete process.env.HOME;
    delete process.env.XDG_STATE_HOME;
    process.env.TMPDIR = "/tmp";
    const home = homeDir();
    expect(home.startsWith("/tmp")).toBe(false);
    expect(stateLocation("ns")).toEqual({ base: home, path: `${home}/.local/state/tuiwright/ns` });
    process.env.XDG_STATE_HOME = "relative/state"; // not absolute: ignored, as the XDG spec says
    expect(stateLocation("ns").base).toBe(home);
  } finally {
    for (const [key, value] of [["HOME", saved.HOME], ["XDG_STATE_HOME", saved.XDG], ["TMPDIR", saved.TMPDIR]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
});
