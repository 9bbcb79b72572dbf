// The shell's integration marks survive the user: after a command that sets the prompt
// (PS1/PROMPT/fish_prompt in the forms people write) or replaces a prompt hook, `exec` still
// runs, exit codes are still the command's, and `status` says `idle` only when an exec can
// type. Driven through the agent-interactive-pty document's names on every transport.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { useWorld } from "../helpers/harness.ts";
import { TRANSPORTS, type Transport } from "../helpers/transports.ts";

setDefaultTimeout(120_000);

const world = useWorld();

/** Per shell: the commands that take its prompt or hooks away, one after another. */
const FORMS: Record<"bash" | "zsh" | "fish", string[]> = {
  bash: [String.raw`PS1='\$ '`, "PS1='>>> '", "PS1=''", String.raw`PS1='\u@\h:\w\$ '`,
    // Hooks replaced, then the prompt again: the marks come back either way.
    "PROMPT_COMMAND='history -a'", "PS1='$ '", 'PROMPT_COMMAND="false; $PROMPT_COMMAND"', "PS1='# '"],
  zsh: ["PROMPT='>>> '", "PS1=''", "precmd_functions=()", "PROMPT='%n@%m %~ %# '"],
  fish: ["function fish_prompt; printf '>>> '; end", "function fish_prompt; end", "functions -e fish_prompt"],
};

const transports: Transport[] = [];
beforeAll(async () => {
  for (const open of Object.values(TRANSPORTS)) transports.push(await open(world));
});
afterAll(async () => {
  for (const transport of transports) await transport.close();
});

for (const name of Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[]) {
  for (const shell of ["bash", "zsh", "fish"] as const) {
    test(`${name}, ${shell}: exec keeps working after each prompt form, with true exit codes`, async () => {
      const pty = transports.find((t) => t.name === name)!;
      const conversation_id = `${name}-${shell}`;
      await world.json(["spawn", "--session", conversation_id, "--shell", shell]);
      const run = (command: string) => pty.call("exec_block", { conversation_id, command, timeout_ms: 20_000 });
      for (const form of FORMS[shell]) {
        const set = await run(form);
        expect(set).toMatchObject({ ok: true, command: form });
        const after = await run("echo after");
        expect({ form, output: after.output, exit: after.exit_code }).toEqual({ form, output: "after\n", exit: 0 });
        expect({ form, exit: (await run("false")).exit_code }).toEqual({ form, exit: 1 });
        expect({ form, mode: (await pty.call("status", { conversation_id })).mode }).toEqual({ form, mode: "idle" });
      }
      await world.json(["kill", "--session", conversation_id]);
    });
  }
}
