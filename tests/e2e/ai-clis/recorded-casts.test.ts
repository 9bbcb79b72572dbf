// The recorded casts keep the AI-CLI manifests honest without the CLIs: each state's outline
// (`adapter test` runs offline, in the CLI's own process).
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { World } from "../../helpers/harness.ts";

const world = World.empty();
afterAll(() => world[Symbol.asyncDispose]());

const RECORDED: [string, string, number][] = [
  ["pi", "pi-states.cast", 5], ["pi", "pi-states.cast", 6], ["pi", "pi-states.cast", 7],
  ["codex", "codex-states.cast", 6], ["codex", "codex-states.cast", 7], ["codex", "codex-states.cast", 11], ["codex", "codex-states.cast", 12],
  // Markers: 2 input focused, 7 busy, 8 done, 14 approval, 16 done after the tool call.
  ...(["claude", "gemini", "opencode"] as const).flatMap((cli) => [2, 7, 8, 14, 16].map((m): [string, string, number] => [cli, `${cli}-states.cast`, m])),
];
for (const [cli, cast, marker] of [...RECORDED, ["claude", "claude-write.cast", 0] as [string, string, number]]) {
  // Marker 0: the end of the recording (claude-write.cast ends on the file-change approval).
  test(`adapter test: adapters/${cli}.toml on ${cast}${marker ? ` at marker ${marker}` : ""}`, async () => {
    const data = join(import.meta.dir, "../../testdata/ai-clis");
    const expected = join(data, marker ? `${cli}-m${marker}.outline` : cast.replace(/\.cast$/, ".outline"));
    const result = await world.run(["adapter", "test", join(import.meta.dir, `../../../adapters/${cli}.toml`), "--cast", join(data, cast), ...(marker ? ["--at-marker", String(marker)] : []), "--expect-outline", expected]);
    expect(result.stderr + result.stdout).not.toContain("differs");
    expect(result.code).toBe(0);
  });
}
