// A terminal session as a desktop application: its outline becomes views (a "Terminal" view
// with the program and the manifest's operations, then one view per manifest region), regions
// with items become lists, named refs with values become entities; operations run the
// manifest's key templates (or an exec block) and wait as the manifest says.
import type { TerminalOperation } from "../adapters/manifest-operations.ts";
import type { OutlineNode } from "../outline/types.ts";
import { asDesktopError, desktopError } from "./aotui-codes.ts";
import type { AppManifest } from "./app-manifest.ts";
import type { ViewUpdate } from "./app-messages.ts";
import type { AppBackend, ExternalApp } from "./desktop.ts";
import type { AppHostHooks } from "./app-host.ts";
import { parseArgsSchema } from "./arg-schema.ts";
import { runTerminalOperation } from "./terminal-operation.ts";
import type { Block, OperationSpec, ViewModel } from "./view-model.ts";

/** What the desktop needs of a session (the daemon provides it). */
export type TerminalSession = {
  name: string;
  call(op: "snapshot" | "type" | "press" | "wait" | "exec", params: Record<string, unknown>): Promise<any>;
  /** The manifest's operations for the adapter that shaped the outline (none for generic). */
  operations(adapter: string | null): TerminalOperation[];
  /** Called on every screen change or exit; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  describe(): { argv: string[]; exited: string | null };
};

const ITEM_LABEL_MAX = 200;
const ID = /[^A-Za-z0-9_-]+/g;

function words(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function pascal(id: string): string {
  return id.split(/[_-]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

function regionName(node: OutlineNode): string {
  const named = node.ref.includes(".") ? node.ref.slice(node.ref.lastIndexOf(".") + 1) : node.role;
  return named.replace(ID, "_") || "region";
}

export function terminalOperationSpecs(operations: TerminalOperation[]): OperationSpec[] {
  return operations.map((op) => ({
    id: op.id,
    label: op.description ? `${pascal(op.id)} (${op.description})` : pascal(op.id),
    args: parseArgsSchema(JSON.stringify(op.args)).args,
  }));
}

/** Screen lines as text blocks; blank lines dropped, a run of 3+ identical lines (vim's ~) said once. */
function textBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  const kept = lines.map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
  for (let i = 0; i < kept.length; ) {
    let j = i + 1;
    while (j < kept.length && kept[j] === kept[i]) j++;
    if (j - i >= 3) blocks.push({ kind: "text", text: `${kept[i]} (${j - i} identical lines)` });
    else for (let k = i; k < j; k++) blocks.push({ kind: "text", text: kept[k]! });
    i = j;
  }
  return blocks;
}

/** The views of one outline. Region views keep their ordinal by region name across refreshes. */
export function terminalViews(nodes: OutlineNode[], adapter: string | null, screenText: string, summary: string[], operations: OperationSpec[], ordinals: Map<string, number>): ViewModel[] {
  const ordinal = (name: string) => {
    if (!ordinals.has(name)) ordinals.set(name, ordinals.size + 1);
    return ordinals.get(name)!;
  };
  const main: ViewModel = { ordinal: 0, name: "Terminal", blocks: summary.map((text) => ({ kind: "text", text })), operations };
  const views: ViewModel[] = [main];
  const regions = adapter !== null && nodes.length === 1 && nodes[0]!.children ? nodes[0]!.children : null;
  if (!regions) {
    views.push({ ordinal: ordinal("screen"), name: "Screen", blocks: textBlocks(screenText.split("\n")), operations: [] });
    return views;
  }
  for (const node of regions) {
    const name = regionName(node);
    const blocks: Block[] = [];
    const durable = !/^@e\d+$/.test(node.ref);
    if (node.value !== undefined && durable) blocks.push({ kind: "text", text: node.value, entity: name });
    if (node.children && node.children.length > 0) {
      blocks.push({
        kind: "list",
        id: name,
        type: node.children[0]!.role.replace(ID, "_"),
        title: pascal(name),
        items: node.children.map((child, index) => {
          const label = words(child.name).slice(0, ITEM_LABEL_MAX);
          const key = (child as OutlineNode & { key?: string }).key ?? null;
          return { label, key, value: { text: child.name, first: child.name.trim().split(/\s+/)[0] ?? "", index, ref: child.ref, ...(key !== null ? { key } : {}), ...(child.selected ? { selected: true } : {}) } };
        }),
      });
    } else {
      blocks.push(...textBlocks(node.name.split("\n")));
    }
    views.push({ ordinal: ordinal(name), name: pascal(name), blocks, operations: [] });
  }
  return views;
}

/** Opens `session` as an application (not serialisable: a session does not outlive its daemon). */
export function terminalAppId(session: string): string {
  return `terminal.${session.toLowerCase().replace(/[^a-z0-9_-]/g, "-")}`;
}

export function terminalApp(session: TerminalSession): ExternalApp {
  const manifest: AppManifest = { id: terminalAppId(session.name), name: `Terminal ${session.name}`, version: "1.0.0", entry: "", system: false, permissions: [] };
  return {
    manifest,
    async start(hooks: AppHostHooks) {
      const ordinals = new Map<string, number>();
      let operations: TerminalOperation[] = [];
      let adapter: string | null = null;
      let known = new Set<number>();
      let closed = false;

      const read = async (): Promise<ViewUpdate[]> => {
        const snap = await session.call("snapshot", { format: "outline" });
        const text = await session.call("snapshot", { format: "text" });
        adapter = snap.outline?.adapter ?? null;
        operations = session.operations(adapter);
        const info = session.describe();
        const summary = [`Session ${session.name}: ${info.argv.join(" ")}${adapter ? ` (manifest ${adapter})` : ""}`, info.exited ? `Exited: ${info.exited}` : "Running."];
        const models = terminalViews(snap.outline?.nodes ?? [], adapter, text.text ?? "", summary, terminalOperationSpecs(operations), ordinals);
        const present = new Set(models.map((m) => m.ordinal));
        const updates: ViewUpdate[] = models.map((model) => ({ model, mounted: true }));
        // A region that left the screen is shown as dismounted, not forgotten (its id stays).
        for (const ordinal of known) {
          if (present.has(ordinal)) continue;
          const name = [...ordinals].find(([, o]) => o === ordinal)?.[0] ?? "region";
          updates.push({ model: { ordinal, name: pascal(name), blocks: [], operations: [] }, mounted: false });
        }
        known = new Set([...known, ...present]);
        return updates;
      };

      // Screen changes come in bursts: one refresh at a time, another if more came meanwhile.
      let refreshing: Promise<void> | null = null;
      let again = false;
      const refresh = (): Promise<void> => {
        if (refreshing) {
          again = true;
          return refreshing;
        }
        refreshing = (async () => {
          do {
            again = false;
            try {
              const updates = await read();
              if (!closed) hooks.views(updates);
            } catch {
              // The session ended or its worker went away; the next change (or none) says so.
            }
          } while (again && !closed);
          refreshing = null;
        })();
        return refreshing;
      };

      const views = await read();
      const unsubscribe = session.onChange(() => void refresh());

      const backend: AppBackend = {
        async call(message, timeoutMs) {
          if (message.kind === "serialize") return { has: false };
          const op = operations.find((o) => o.id === message.operation);
          if (!op || adapter === null) throw desktopError("desktop-not-found", `session ${session.name} has no operation ${JSON.stringify(message.operation)}`);
          // The runner keeps its own deadline; this one only guards against a call that never returns.
          let timeout: ReturnType<typeof setTimeout> | undefined;
          const guard = new Promise<never>((_, reject) => {
            timeout = setTimeout(() => reject(desktopError("timeout", `operation ${op.id} did not finish within ${timeoutMs} ms; it may still take effect (read the desktop before you retry)`, {}, undefined, false)), timeoutMs + 2000);
          });
          try {
            const outcome = await Promise.race([runTerminalOperation(session, adapter, op, message.args, timeoutMs), guard]);
            return { ok: true, ...outcome };
          } catch (error) {
            throw asDesktopError(error);
          } finally {
            clearTimeout(timeout);
            await refresh();
          }
        },
        sync: () => refresh(),
        terminate() {
          closed = true;
          unsubscribe();
        },
      };
      return { host: backend, views };
    },
  };
}
