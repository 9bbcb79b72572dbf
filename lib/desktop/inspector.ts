// `tuiwright desktop inspect`: the AOTUI Inspector (§7.3) — a full-screen terminal view of a
// desktop's live Markdown and its signal/command log. Keys: ↑/↓ PgUp/PgDn g/G scroll, : types a
// command (<context …>…</context>, or a bare system command), Enter runs it, Esc cancels, q quits.
// It peeks (registers no snapshot), so an agent's snapshot ids stay valid while it watches.
import type { RpcClient } from "../transport/rpc-client.ts";

type Key = string;

export class Inspector {
  readonly #rpc: RpcClient;
  #desktop: string | undefined;
  #lines: string[] = ["(loading)"];
  #log: string[] = [];
  #scroll = 0;
  #input: string | null = null;
  #pulling: Promise<void> | null = null;
  #pullAgain = false;
  #done!: () => void;
  readonly finished = new Promise<void>((resolve) => { this.#done = resolve; });

  constructor(rpc: RpcClient, desktop: string | undefined) {
    this.#rpc = rpc;
    this.#desktop = desktop;
  }

  async start(): Promise<void> {
    const subscribed = (await this.#rpc.call("desktop.subscribe", this.#which())) as { desktop: string };
    this.#desktop = subscribed.desktop;
    this.#rpc.onNotification = (message) => {
      if (message.method !== "desktop.signal") return;
      this.#addLog(`signal ${(message.params as { reason: string }).reason}`);
      void this.#pull();
    };
    void this.#rpc.closed.then(() => this.quit());
    this.#addLog(`watching ${this.#desktop}`);
    await this.#pull();
  }

  #which(): Record<string, unknown> {
    return this.#desktop === undefined ? {} : { desktop: this.#desktop };
  }

  #addLog(text: string): void {
    const time = new Date().toISOString().slice(11, 19);
    const last = this.#log.at(-1);
    const repeat = last && /^\d\d:\d\d:\d\d (.*?)(?: ×(\d+))?$/.exec(last);
    if (repeat && repeat[1] === text) this.#log[this.#log.length - 1] = `${time} ${text} ×${Number(repeat[2] ?? 1) + 1}`;
    else this.#log.push(`${time} ${text}`);
    if (this.#log.length > 200) this.#log.shift();
    this.draw();
  }

  /** One pull at a time; signals during a pull cause one more. */
  #pull(): Promise<void> {
    if (this.#pulling) {
      this.#pullAgain = true;
      return this.#pulling;
    }
    this.#pulling = (async () => {
      do {
        this.#pullAgain = false;
        try {
          const result = (await this.#rpc.call("desktop.snapshot", { ...this.#which(), peek: true })) as { markup: string };
          this.#lines = result.markup.split("\n");
        } catch (error) {
          this.#addLog(`snapshot failed: ${(error as Error).message}`);
        }
      } while (this.#pullAgain);
      this.#pulling = null;
      this.draw();
    })();
    return this.#pulling;
  }

  async #run(text: string): Promise<void> {
    const command = text.trimStart().startsWith("<context") ? text : `<context>${text}</context>`;
    this.#addLog(`exec ${text}`);
    try {
      await this.#rpc.call("desktop.exec", { ...this.#which(), command });
      this.#addLog(`→ ok`);
    } catch (error) {
      this.#addLog(`→ ${(error as Error).message}`);
    }
    await this.#pull();
  }

  key(key: Key): void {
    if (key === "\x03") return this.quit();
    if (this.#input !== null) {
      if (key === "\r") {
        const text = this.#input.trim();
        this.#input = null;
        if (text) void this.#run(text);
      } else if (key === "\x1b") this.#input = null;
      else if (key === "\x7f" || key === "\b") this.#input = this.#input.slice(0, -1);
      else if (!key.startsWith("\x1b")) this.#input += key.replace(/[\x00-\x1f]/g, "");
      this.draw();
      return;
    }
    const page = Math.max(1, this.#bodyRows() - 1);
    switch (key) {
      case "q": return this.quit();
      case ":": this.#input = ""; break;
      case "\x1b[A": case "k": this.#scroll--; break;
      case "\x1b[B": case "j": this.#scroll++; break;
      case "\x1b[5~": this.#scroll -= page; break;
      case "\x1b[6~": case " ": this.#scroll += page; break;
      case "g": case "\x1b[H": this.#scroll = 0; break;
      case "G": case "\x1b[F": this.#scroll = Number.MAX_SAFE_INTEGER; break;
      default: return;
    }
    this.draw();
  }

  #size(): { cols: number; rows: number } {
    return { cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 };
  }

  #bodyRows(): number {
    return Math.max(3, this.#size().rows - 9);
  }

  draw(): void {
    const { cols, rows } = this.#size();
    const clip = (text: string) => (text.length > cols ? text.slice(0, cols - 1) + "…" : text.padEnd(cols));
    const body = this.#bodyRows();
    this.#scroll = Math.max(0, Math.min(this.#scroll, Math.max(0, this.#lines.length - body)));
    const out: string[] = [];
    const end = Math.min(this.#lines.length, this.#scroll + body);
    out.push(`\x1b[7m${clip(` AOTUI Inspector · ${this.#desktop ?? "?"} · lines ${this.#scroll + 1}-${end} of ${this.#lines.length} · ↑↓ PgUp PgDn g G · : command · q quit`)}\x1b[0m`);
    for (let i = 0; i < body; i++) out.push(clip(this.#lines[this.#scroll + i] ?? ""));
    out.push(`\x1b[7m${clip(" Signals and commands")}\x1b[0m`);
    const logRows = rows - body - 3;
    const shown = this.#log.slice(-logRows);
    for (let i = 0; i < logRows; i++) out.push(clip(shown[i] ?? ""));
    out.push(this.#input === null ? clip("Press : to run a command") : clip(`: ${this.#input}`));
    process.stdout.write(`\x1b[H${out.join("\r\n")}`);
  }

  quit(): void {
    this.#done();
  }
}
