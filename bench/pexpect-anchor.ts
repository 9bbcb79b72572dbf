// pexpect (python3) as an anchor row: a long-lived python process that runs one step per
// request, timed inside python around the pexpect calls, so the bench can interleave it with
// ours and tmux. Absent when python3 has no pexpect module: the row then says so.
import { bounded, runs } from "./measure.ts";

export class PexpectAnchor {
  readonly #proc: Bun.Subprocess<"pipe", "pipe", "ignore">;
  readonly #lines: AsyncIterator<string>;

  private constructor() {
    this.#proc = Bun.spawn(["python3", new URL("./pexpect-steps.py", import.meta.url).pathname], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
    this.#lines = this.#readLines();
  }

  /** The anchor, or why there is none on this machine. */
  static open(): PexpectAnchor | string {
    if (!runs(["python3", "-c", "import pexpect"])) return "skipped: python3 has no pexpect module on this machine";
    return new PexpectAnchor();
  }

  async *#readLines(): AsyncGenerator<string> {
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of this.#proc.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) !== -1) { yield buffer.slice(0, nl); buffer = buffer.slice(nl + 1); }
    }
  }

  /** Runs one step and returns pexpect's own time for it, in ms. */
  async step(name: "spawn" | "exec"): Promise<number> {
    this.#proc.stdin.write(`${name}\n`);
    this.#proc.stdin.flush();
    const next = await bounded(this.#lines.next(), 15_000, `pexpect ${name}`, () => this.#proc.kill("SIGKILL"));
    const value = Number(next.value);
    if (next.done || !Number.isFinite(value)) throw new Error(`pexpect ${name}: ${next.value ?? "python exited"}`);
    return value;
  }

  async close(): Promise<void> {
    try { this.#proc.stdin.end(); } catch { /* gone */ }
    await bounded(this.#proc.exited, 5000, "python to exit", () => this.#proc.kill("SIGKILL")).catch(() => undefined);
  }
}
