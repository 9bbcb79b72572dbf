// Records the casts the "never lie" test replays: each built-in manifest's program, driven
// through its ordinary screens on a real PTY. Run after `bun run build`:
//   bun tests/testdata/record-dom-casts.ts
// and commit tests/testdata/casts/*.cast. Each step waits on screen state, never on time.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";

const OUT = join(import.meta.dir, "casts");
type Step = string[]; // a CLI verb and its arguments (the session is added)
type Recording = { name: string; argv: string[]; size: [number, number]; steps: Step[]; setup?: (dir: string) => void };

const RECORDINGS: Recording[] = [
  {
    name: "vim", argv: ["vim", "-u", "NONE", "-N", "modes.txt"], size: [60, 12],
    setup: (dir) => writeFileSync(join(dir, "modes.txt"), Array.from({ length: 6 }, (_, i) => `line ${i}`).join("\n") + "\n"),
    steps: [
      ["wait", "--ref", "@vim.buffer"],
      ["press", "i", "--wait-ref", "@vim.mode", "--ref-value", "insert"], ["type", "typed", "--wait-text", "typed"],
      ["press", "Escape", "v", "--wait-ref", "@vim.mode", "--ref-value", "visual"],
      ["press", "Escape", "V", "--wait-ref", "@vim.mode", "--ref-value", "visual-line"],
      ["press", "Escape", "C-v", "--wait-ref", "@vim.mode", "--ref-value", "visual-block"],
      ["press", "Escape", "R", "--wait-ref", "@vim.mode", "--ref-value", "replace"],
      ["press", "Escape", "--wait-ref", "@vim.mode", "--ref-value", "unknown"],
      ["type", ":echo 42", "--wait-ref", "@vim.mode", "--ref-value", "command"], ["press", "Enter", "--wait-text", "42"],
      ["type", ':echo "a\\nb"\r', "--wait-ref", "@vim.mode", "--ref-value", "hit-enter"], ["press", "Enter", "--wait-ref", "@vim.buffer"],
      ["type", ":for i in range(30) | echo i | endfor\r", "--wait-ref", "@vim.mode", "--ref-value", "more"],
      ["press", "q", "--wait-ref", "@vim.buffer"],
      ["type", "/line 3", "--wait-ref", "@vim.mode", "--ref-value", "search"], ["press", "Enter", "--wait-ref", "@vim.mode", "--ref-value", "/^(unknown)$/"],
      ["type", ":q!\r", "--wait-exit"],
    ],
  },
  {
    name: "vim-compatible", argv: ["vim", "-u", "NONE", "plain.txt"], size: [60, 10],
    setup: (dir) => writeFileSync(join(dir, "plain.txt"), "alpha\nbeta\n"),
    steps: [
      ["wait", "--ref", "@vim.buffer"], ["press", "i"], ["type", "XYZ", "--wait-text", "XYZalpha"],
      ["press", "Escape"], ["type", ":q!\r", "--wait-exit"],
    ],
  },
  {
    name: "less", argv: ["less", "pages.txt"], size: [60, 10],
    setup: (dir) => writeFileSync(join(dir, "pages.txt"), Array.from({ length: 60 }, (_, i) => `row ${i}`).join("\n") + "\n"),
    steps: [
      ["wait", "--ref", "@less.status[focused]"],
      ["type", "/absent-pattern\r", "--wait-ref", "@less.status", "--ref-value", "not-found"],
      ["press", "Enter", "--wait-ref", "@less.status", "--ref-value", "/^(file|prompt)$/"],
      ["press", "h", "--wait-ref", "@less.status", "--ref-value", "help"], ["press", "q", "--wait-ref", "@less.status", "--ref-value", "/^(file|prompt)$/"],
      ["press", "G", "--wait-ref", "@less.end"], ["press", "q", "--wait-exit"],
    ],
  },
  {
    name: "htop", argv: ["htop", "-d", "100"], size: [100, 24],
    steps: [
      ["wait", "--ref", "@htop.selected"], ["press", "Down", "Down", "--settled", "200"],
      ["press", "M", "--settled", "200"], ["press", "I", "--settled", "200"],
      ["press", "F6", "--wait-ref", "@htop.sort"], ["press", "Escape", "--wait-ref", "@htop.sort", "--gone"],
      ["press", "F3", "--wait-ref", "@htop.search"], ["type", "htop", "--settled", "200"], ["press", "Escape", "--wait-ref", "@htop.search", "--gone"],
      ["press", "F4", "--wait-ref", "@htop.filter"], ["type", "ht", "--settled", "200"], ["press", "Escape", "--wait-ref", "@htop.filter", "--gone"],
      ["press", "F5", "--wait-text", "F5List"], ["press", "F5", "--wait-text", "F5Tree"],
      ["press", "F2", "--wait-ref", "@htop.categories"], ["press", "Escape", "--wait-ref", "@htop.processes"],
      ["press", "F1", "--wait-text", "Process state"], ["press", "Escape", "--wait-ref", "@htop.processes"],
      ["press", "q", "--wait-exit"],
    ],
  },
  {
    name: "top", argv: ["top", "-d", "10"], size: [100, 24],
    steps: [
      ["wait", "--ref", "@top.tasks"], ["press", "M", "--settled", "200"], ["press", "f", "--wait-text", "Fields Management"],
      ["press", "q", "--wait-ref", "@top.tasks"], ["press", "h", "--wait-text", "Help for Interactive Commands"],
      ["press", "q", "--wait-ref", "@top.tasks"], ["press", "q", "--wait-exit"],
    ],
  },
  {
    name: "man", argv: ["man", "ls"], size: [80, 20],
    steps: [["wait", "--ref", "@man.page"], ["press", "PageDown", "--settled", "200"], ["press", "G", "--settled", "300"], ["press", "q", "--wait-exit"]],
  },
  {
    name: "python", argv: ["python3", "-q"], size: [60, 10],
    steps: [
      ["wait", "--ref", "@python.prompt"], ["type", "for i in range(12): print(i)\r\r", "--wait-regex", "/^11$/m"],
      ["wait", "--ref", "@python.prompt"], ["type", "exit()\r", "--wait-exit"],
    ],
  },
  {
    name: "bash", argv: ["bash", "--norc", "--noprofile"], size: [60, 10],
    steps: [
      ["wait", "--regex", "/[$#]$/"], ["type", "echo hello-$((6*7))\r", "--wait-text", "hello-42"],
      ["wait", "--regex", "/hello-42\\n.*[$#]$/"], ["type", "sh -c 'printf \"fake$ \"; exec cat'\r", "--wait-regex", "/^fake\\$$/m"],
      ["press", "C-d", "--wait-regex", "/fake\\$ .*[$#]$/"], ["type", "exit\r", "--wait-exit"],
    ],
  },
];

mkdirSync(OUT, { recursive: true });
const world = await World.start();
try {
  for (const recording of RECORDINGS) {
    const dir = join(world.dir, recording.name);
    mkdirSync(dir, { recursive: true });
    recording.setup?.(dir);
    const cast = join(dir, `${recording.name}.cast`);
    const [cols, rows] = recording.size;
    const { name } = await world.json(["spawn", "--cwd", dir, "--cast", cast, "--cols", String(cols), "--rows", String(rows), "--", ...recording.argv], { cwd: dir });
    for (const [verb, ...args] of recording.steps) await world.json([verb!, "--session", name, ...args]);
    await world.json(["kill", "--session", name]).catch(() => {});
    copyFileSync(cast, join(OUT, `${recording.name}.cast`));
    console.log(`recorded ${recording.name}`);
  }
} finally {
  await world[Symbol.asyncDispose]();
}
