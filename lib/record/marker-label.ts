// Marker labels for the recording: what the driver did, readable in a player's marker list,
// e.g. `press Enter`, `type "make test"`, `wait text "$"`, `press Enter; wait regex /^ok$/m`.
type Conditions = {
  text?: string[]; regex?: string[]; gone?: boolean; settledMs?: number; changedSince?: number; title?: string;
  cursor?: { row: number; col: number }; altScreen?: boolean; exit?: boolean; ref?: string; refValue?: string;
};

const MAX = 80;

/** The label prefix of a wait that failed (timed out); reports show these as failures. */
export const FAILED_MARKER = "failed: ";

function clip(text: string): string {
  const flat = text.replace(/\r/g, "⏎").replace(/\n/g, "⏎");
  return flat.length > MAX ? `${flat.slice(0, MAX - 1)}…` : flat;
}

function describeWait(spec: Conditions): string {
  const parts: string[] = [];
  const gone = spec.gone ? " gone" : "";
  for (const text of spec.text ?? []) parts.push(`text ${JSON.stringify(clip(text))}${gone}`);
  for (const re of spec.regex ?? []) parts.push(`regex ${clip(re)}${gone}`);
  if (spec.ref !== undefined) parts.push(`ref ${clip(spec.ref)}${spec.refValue === undefined ? "" : ` = ${JSON.stringify(spec.refValue)}`}${gone}`);
  if (spec.settledMs !== undefined) parts.push(`settled ${spec.settledMs}ms`);
  if (spec.changedSince !== undefined) parts.push(`changed-since ${spec.changedSince}`);
  if (spec.title !== undefined) parts.push(`title ${JSON.stringify(clip(spec.title))}`);
  if (spec.cursor) parts.push(`cursor ${spec.cursor.row},${spec.cursor.col}`);
  if (spec.altScreen !== undefined) parts.push(`alt-screen ${spec.altScreen ? "on" : "off"}`);
  if (spec.exit) parts.push("exit");
  return `wait ${parts.join(", ")}`;
}

export function markerLabel(action: "press" | "type" | "click" | "wait", what: string, wait: Conditions | undefined): string {
  if (action === "wait") return describeWait(wait ?? {});
  const head = action === "type" ? `type ${JSON.stringify(clip(what))}` : `${action} ${clip(what)}`;
  return wait ? `${head}; ${describeWait(wait)}` : head;
}
