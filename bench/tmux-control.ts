// A tmux control-mode client (`tmux -C`): one persistent connection that runs tmux commands
// and returns their output — the fair counterpart of our persistent JSON-RPC connection.
// Pane output notifications are switched off: we only want command replies, and tmux would
// otherwise queue every %output line for us (it grew past 1 GB in one run).
// Every command is bounded, and when `tmux -C` exits every pending command fails: a bench row
// fails rather than waiting for an answer that cannot come.
import { bounded } from "./measure.ts";

type Waiter = { resolve(lines: string[]): void; reject(error: Error): void };

export class TmuxControl {
  readonly #proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  readonly #waiters: Waiter[] = [];
  #buffer = "";
  #block: string[] | null = null;
  #gone: Error | null = null;
  /** Resolves with tmux's own first block (the answer to the attach itself). */
  readonly ready: Promise<void>;

  constructor(server: string, session: string, readonly timeoutMs = 10_000) {
    this.#proc = Bun.spawn(["tmux", "-L", server, "-C", "attach", "-t", session], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const attached = new Promise<string[]>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    this.ready = bounded(attached, timeoutMs, `tmux -C attach -t ${session}`).then(() => this.#command("refresh-client -f no-output")).then(() => undefined);
    this.ready.catch(() => undefined); // observed by run(); never an unhandled rejection
    void this.#read();
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.#proc.stdout) {
        this.#buffer += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = this.#buffer.indexOf("\n")) !== -1) {
          const line = this.#buffer.slice(0, newline);
          this.#buffer = this.#buffer.slice(newline + 1);
          if (line.startsWith("%begin")) this.#block = [];
          else if (line.startsWith("%end") || line.startsWith("%error")) {
            const block = this.#block ?? [];
            this.#block = null;
            // An error answer fails the command: a row never takes tmux's complaint for its result.
            if (line.startsWith("%error")) this.#waiters.shift()?.reject(new Error(`tmux: ${block.join(" ")}`));
            else this.#waiters.shift()?.resolve(block);
          } else if (this.#block && !/^%(output|extended-output) /.test(line)) this.#block.push(line);
        }
      }
    } finally {
      const code = await this.#proc.exited;
      const stderr = await new Response(this.#proc.stderr).text().catch(() => "");
      this.#gone = new Error(`tmux -C exited (${code})${stderr.trim() ? `: ${stderr.trim()}` : ""}`);
      for (const w of this.#waiters.splice(0)) w.reject(this.#gone);
    }
  }

  /** Runs one tmux command and returns its output lines. */
  async run(command: string): Promise<string[]> {
    await this.ready;
    return this.#command(command);
  }

  #command(command: string): Promise<string[]> {
    if (this.#gone) return Promise.reject(this.#gone);
    const answer = new Promise<string[]>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#proc.stdin.write(command + "\n");
      this.#proc.stdin.flush();
    });
    return bounded(answer, this.timeoutMs, `tmux -C: ${command}`, () => this.#proc.kill("SIGKILL"));
  }

  async close(): Promise<void> {
    try { this.#proc.stdin.end(); } catch { /* already gone */ }
    await bounded(this.#proc.exited, this.timeoutMs, "tmux -C to exit", () => this.#proc.kill("SIGKILL")).catch(() => this.#proc.kill("SIGKILL"));
  }
}
