// `snapshot --save FILE`: the live screen as a snapshot file, the same format that
// `replay --expect-snapshot` checks, so a golden captured live can be checked from the cast.
import { writeOutputFile } from "../runtime/output-file.ts";
import { writeRaw } from "../runtime/stdio.ts";
import { compactOutline } from "../outline/compact.ts";
import type { OutlineNode } from "../outline/types.ts";
import { formatSnapshotFile } from "../record/snapshot-file.ts";
import type { RpcClient } from "../transport/rpc-client.ts";
import type { SaveRequest } from "./invocation.ts";
import type { OutputMode } from "./verbs.ts";
import type { Result } from "../protocol/methods.ts";

export async function saveSnapshot(rpc: RpcClient, params: Record<string, unknown>, save: SaveRequest, mode: OutputMode): Promise<string> {
  // A bad mask fails now, not at replay (masks match in linear time; re2js loads only here).
  const { linearPattern } = await import("../terminal/linear-pattern.ts");
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

/** `snapshot --out FILE`: the image (or text) written to a file (`-`: standard output, and
 * nothing else is printed); says what was written. */
export async function writeSnapshotOut(file: string, result: Result<"snapshot">, mode: OutputMode): Promise<string> {
  let contents: string | Uint8Array;
  if (result.png !== undefined) contents = Buffer.from(result.png, "base64");
  else contents = result.svg ?? result.text ?? result.ansi ?? JSON.stringify(result.cells ?? result.outline ?? null);
  if (file === "-") {
    await writeRaw("stdout", contents);
    return "";
  }
  writeOutputFile(file, contents);
  return mode === "json" ? JSON.stringify({ written: file, bytes: contents.length, format: result.format, revision: result.revision }) : mode === "plain" ? file : `wrote ${result.format} of ${result.session} (revision ${result.revision}) to ${file}`;
}
