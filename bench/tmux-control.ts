// A tmux control-mode client (`tmux -C`): one persistent connection that runs tmux commands
// and returns their output — the fair counterpart of our persistent JSON-RPC connection.
// Pane output notifications are switched off: we only want command replies, and tmux would
// otherwise queue every %output line for us (it grew past 1 GB in one run).
export class TmuxControl {
  readonly #proc: Bun.Subprocess<"pipe", "pipe", "ignore">;
  readonly #waiters: ((lines: string[]) => void)[] = [];
  #buffer = "";
  #block: string[] | null = null;
  /** Resolves with tmux's own first block (the answer to the attach itself). */
  readonly ready: Promise<void>;

  constructor(server: string, session: string) {
    this.#proc = Bun.spawn(["tmux", "-L", server, "-C", "attach", "-t", session], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
    const attached = new Promise<void>((resolve) => this.#waiters.push(() => resolve()));
    this.ready = attached.then(() => this.#command("refresh-client -f no-output")).then(() => undefined);
    void this.#read();
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
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
          this.#waiters.shift()?.(block);
        } else if (this.#block && !/^%(output|extended-output) /.test(line)) this.#block.push(line);
      }
    }
  }

  /** Runs one tmux command and returns its output lines. */
  async run(command: string): Promise<string[]> {
    await this.ready;
    return this.#command(command);
  }

  #command(command: string): Promise<string[]> {
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      this.#proc.stdin.write(command + "\n");
      this.#proc.stdin.flush();
    });
  }

  async close(): Promise<void> {
    this.#proc.stdin.end();
    await this.#proc.exited;
  }
}
