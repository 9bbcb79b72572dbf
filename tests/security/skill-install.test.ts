// Finding 16: `skill --install DIR` writes DIR/tuiwright/SKILL.md. In a shared skills directory
// another user can make DIR/tuiwright first (mode 777, theirs): it is refused (77) and nothing is
// written into it. Our own earlier install is still replaced in place.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { useWorld } from "../helpers/harness.ts";
import { asAttacker, attacker, isRoot, sharedDir, SKIP_REASON } from "./other-user.ts";

if (!isRoot) console.log(`skill-install: the other-user test is skipped — ${SKIP_REASON}`);

const SKILL = readFileSync(resolve(import.meta.dir, "../../SKILL.md"), "utf8");
const world = useWorld();
let shared: string;

beforeAll(() => { if (isRoot) shared = sharedDir(); });
afterAll(() => { if (shared) rmSync(shared, { recursive: true, force: true }); });

test.skipIf(!isRoot)("a DIR/tuiwright another user made first is refused (77), and nothing is written into it", async () => {
  asAttacker(`mkdir -m 777 ${shared}/tuiwright`);
  const result = await world.run(["skill", "--install", shared]);
  expect(result.code).toBe(77);
  expect(result.stderr).toContain(`refusing to write into ${JSON.stringify(join(shared, "tuiwright"))}: it belongs to uid ${attacker().uid}, not 0 (another user created it)`);
  expect(readdirSync(join(shared, "tuiwright"))).toEqual([]);
});

test("our own earlier install is replaced in place (0644: any agent may read it)", async () => {
  const skills = join(world.dir, "skills");
  mkdirSync(skills);
  for (let i = 0; i < 2; i++) {
    const result = await world.run(["skill", "--install", skills]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  }
  expect(readFileSync(join(skills, "tuiwright", "SKILL.md"), "utf8")).toBe(SKILL);
  expect(statSync(join(skills, "tuiwright", "SKILL.md")).mode & 0o777).toBe(0o644);
  expect(readdirSync(join(skills, "tuiwright"))).toEqual(["SKILL.md"]);
});
