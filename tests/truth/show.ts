// Prints each labelled state of a truth cast as a person labels it: the screen with row and
// column numbers, the cursor, the highlighted runs (inverse or background colour, with their
// cells), and today's outline nodes that state semantic facts.
//   bun tests/truth/show.ts tests/truth/casts/vim-split.cast [MARKER]
import { walk } from "../../lib/outline/types.ts";
import { replayStates } from "./replay-states.ts";

const [castPath, only] = process.argv.slice(2);
if (!castPath) throw new Error("usage: bun tests/truth/show.ts CAST [MARKER]");

await replayStates(castPath, ({ marker, screen, adapter, nodes, inputs }) => {
  if (only && marker !== only) return;
  const grid = screen.grid();
  const ruler = Array.from({ length: grid.cols }, (_, c) => (c % 10 === 0 ? String((c / 10) % 10) : " ")).join("");
  const ruler2 = Array.from({ length: grid.cols }, (_, c) => String(c % 10)).join("");
  console.log(`\n===== ${marker}  (${grid.cols}x${grid.rows}, cursor row ${grid.cursor.row} col ${grid.cursor.col}${grid.cursor.visible ? "" : " hidden"}, alt ${grid.altScreen}, adapter ${adapter}, keys sent: ${JSON.stringify(inputs.map((i) => i.data).join("")).slice(0, 120)})`);
  console.log(`    ${ruler}\n    ${ruler2}`);
  // Under each row, a letter per cell for its look ("." = default): the legend follows.
  const looks = new Map<string, string>();
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const lookOf = (c: number, r: number) => {
    const s = grid.lines[r]!.styles[c];
    if (!s) return ".";
    const key = [s.inverse ? "inverse" : "", s.fg !== undefined ? `fg ${s.fg}` : "", s.bg !== undefined ? `bg ${s.bg}` : "", s.bold ? "bold" : "", s.underline ? "underline" : "", s.dim ? "dim" : ""].filter(Boolean).join(" ");
    if (!key || key.startsWith("fg") && !key.includes("bg") && !key.includes("inverse")) return ".";
    if (!looks.has(key)) looks.set(key, letters[looks.size % letters.length]!);
    return looks.get(key)!;
  };
  grid.lines.forEach((line, r) => {
    console.log(`${String(r).padStart(2)}  ${line.chars.map((c) => c || "").join("")}`);
    const map = line.chars.map((_, c) => lookOf(c, r)).join("");
    if (/[^.]/.test(map)) console.log(`    ${map}`);
  });
  console.log(`looks: ${[...looks].map(([k, v]) => `${v}=${k}`).join("; ")}`);
  console.log("outline claims:");
  for (const n of walk(nodes)) {
    const semantic = n.selected || n.focused || n.role === "input" || (n.value !== undefined && !/^@e\d+$/.test(n.ref));
    const b = n.bbox;
    console.log(`  ${semantic ? "*" : " "} ${n.ref} ${n.role} [${b.row},${b.col},${b.rows},${b.cols}]${n.selected ? " selected" : ""}${n.focused ? " focused" : ""}${n.value !== undefined ? ` = ${JSON.stringify(n.value)}` : ""} ${JSON.stringify(n.name.slice(0, 50))}`);
  }
});
