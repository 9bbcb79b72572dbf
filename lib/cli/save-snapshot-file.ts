// `snapshot --save FILE`: the live screen as a snapshot file, the same format that
// `replay --expect-snapshot` checks, so a golden captured live can be checked from the cast.
// Loaded through entries/commands.ts: the snapshot file's masks need re2js (~250 kB of code),
// which every other CLI start would otherwise load.
import { writeOutputFile } from "../runtime/output-file.ts";
import { compactOutline } from "../outline/compact.ts";
import type { OutlineNode } from "../outline/types.ts";
import { formatSnapshotFile } from "../record/snapshot-file.ts";
import { linearPattern } from "../terminal/linear-pattern.ts";
import type { RpcClient } from "../transport/rpc-client.ts";
import type { SaveRequest } from "./invocation.ts";
import type { OutputMode } from "./verbs.ts";

export async function saveSnapshot(rpc: RpcClient, params: Record<string, unknown>, save: SaveRequest, mode: OutputMode): Promise<string> {
  // A bad mask fails now, not at replay (masks match in linear time).
  for (const mask of save.masks) linearPattern(mask);
  const session = params.session === undefined ? {} : { session: params.session };
  const text = (await rpc.call("snapshot", { ...session, format: "text" })) as { text: string; cols: number; rows: number; session: string; revision: number };
  let outline: string[] | null = null;
  if (save.outline) {
    const snap = (await rpc.call("snapshot", { ...session, format: "outline" })) as { outline: { nodes: OutlineNode[] } };
    outline = compactOutline(snap.outline.nodes);
  }
  const contents = formatSnapshotFile({ cols: text.cols, rows: text.rows, masks: save.masks, screen: text.text === "" ? [] : text.text.split("\n"), outline });
  writeOutputFile(save.file, contents);
  return mode === "json" ? JSON.stringify({ saved: save.file, session: text.session, revision: text.revision }) : mode === "plain" ? save.file : `saved ${text.session} (revision ${text.revision}) to ${save.file}`;
}
