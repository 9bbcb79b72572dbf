// Messages between the desktop (main thread) and one app's worker (workers/app.ts).
import type { ViewModel } from "./view-model.ts";

export type WireError = { code: number; message: string; data?: unknown };

export type StartMessage = {
  kind: "start";
  appId: string;
  dir: string;
  entryPath: string;
  permissions: string[];
  /** The app's own data from a saved desktop, handed to its restore hook. */
  appData?: unknown;
  hasAppData: boolean;
  /** Source of a built-in (system) app, which has no folder on disk. */
  source?: string;
};

export type ToApp =
  | StartMessage
  | { kind: "operation"; id: number; ordinal: number; operation: string; args: Record<string, unknown>; stable_keys: string[] }
  | { kind: "serialize"; id: number };

export type ViewUpdate = { model: ViewModel; mounted?: boolean };

export type FromApp =
  | { kind: "ready"; views: ViewUpdate[] }
  | { kind: "start-failed"; error: WireError }
  | { kind: "views"; views: ViewUpdate[] }
  | { kind: "reply"; id: number; value?: unknown; error?: WireError };
