// The HTML report: one self-contained page with asciinema-player (inlined from npm), the cast
// (inlined as a data URL), and the recording's markers as a list that seeks the player.
import type { Cast } from "./cast-reader.ts";
import { isFactsMarker } from "./fact-marker.ts";
import { FAILED_MARKER } from "./marker-label.ts";

export type ReportAssets = { playerJs: string; playerCss: string };

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
// Inline <script> content must not close the element early.
const inlineScript = (code: string) => code.replace(/<\/script/gi, "<\\/script");

/** Times with every pause longer than `limit` seconds cut to `limit` (what the player shows
 * with idleTimeLimit), so the listed marker times match the player's clock. */
function compressIdle(times: number[], limit: number | undefined): number[] {
  if (limit === undefined) return times;
  let previous = 0;
  let shifted = 0;
  return times.map((time) => {
    shifted += Math.min(time - previous, limit);
    previous = time;
    return shifted;
  });
}

export function renderReport(castText: string, cast: Cast, title: string, assets: ReportAssets, options: { idleLimit?: number } = {}): string {
  const times = compressIdle(cast.events.map((e) => e.time), options.idleLimit);
  // Recorded process facts are markers only to the format: neither listed nor on the timeline.
  const markers = cast.events.flatMap((e, i) => (e.code === "m" && !isFactsMarker(e.data) ? [{ time: times[i]!, label: e.data, failed: e.data.startsWith(FAILED_MARKER) }] : []));
  const failures = markers.filter((m) => m.failed).length;
  const duration = times.at(-1) ?? 0;
  const exit = cast.events.find((e) => e.code === "x")?.data ?? null;
  const items = markers.map((m, i) =>
    `<li${m.failed ? ' class="failed"' : ""}${i === markers.findIndex((x) => x.failed) ? ' id="first-failure"' : ""}><button type="button" data-marker="${i}" data-time="${m.time.toFixed(3)}">${(i + 1).toString().padStart(2, "0")} · ${m.time.toFixed(2)} s</button> <span>${m.failed ? "✗ " : ""}${escapeHtml(m.label || "(no label)")}</span></li>`).join("\n");
  const source = `data:text/plain;base64,${Buffer.from(castText, "utf8").toString("base64")}`;
  // A CI reader opens the report to see what went wrong: it opens on the first failed wait, or on
  // the last frame, with the marker list beside the player (no scrolling to find either).
  const firstFailure = markers.findIndex((m) => m.failed);
  const openAt = firstFailure >= 0 ? markers[firstFailure]!.time : duration;
  const openedOn = firstFailure >= 0 ? `opened at failed wait ${firstFailure + 1} (${openAt.toFixed(2)} s)` : `opened at the end (${openAt.toFixed(2)} s)`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>${assets.playerCss}</style>
<style>
body { font-family: system-ui, sans-serif; margin: 24px; background: #111; color: #ddd; }
h1 { font-size: 18px; } .facts { color: #999; font-size: 13px; }
main { display: flex; gap: 20px; align-items: flex-start; }
#player { flex: 1 1 auto; min-width: 0; max-width: 1100px; }
aside { flex: 0 0 320px; max-height: 80vh; overflow-y: auto; }
aside h2 { font-size: 15px; margin-top: 0; }
ol { padding-left: 0; list-style: none; font-size: 13px; }
li.current { outline: 1px solid #888; }
li { margin: 4px 0; } li button { font: inherit; cursor: pointer; }
li.failed span, .failures { color: #ff6b6b; font-weight: bold; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="facts">${cast.cols}x${cast.rows} · ${duration.toFixed(2)} s · ${markers.length} marker(s)${failures > 0 ? ` · <span class="failures">${failures} failed wait(s)</span>` : ""}${options.idleLimit !== undefined ? ` · idle time limited to ${options.idleLimit} s` : ""}${exit === null ? "" : ` · exit status ${escapeHtml(exit)}`}${cast.command ? ` · <code>${escapeHtml(cast.command)}</code>` : ""}</p>
<p class="facts" id="opened">${openedOn}</p>
<main>
<div id="player"></div>
<aside>
<h2>Markers</h2>
<ol id="markers">
${items || "<li>(none)</li>"}
</ol>
</aside>
</main>
<script>${inlineScript(assets.playerJs)}</script>
<script>
const player = AsciinemaPlayer.create(${JSON.stringify(source)}, document.getElementById("player"), { cols: ${cast.cols}, rows: ${cast.rows}, preload: true, fit: "width", markers: ${JSON.stringify(markers.map((m) => [m.time, m.label])).replace(/</g, "\\u003c")}, ${firstFailure >= 0 ? `startAt: ${openAt.toFixed(3)}, ` : ""}poster: "npt:${openAt.toFixed(3)}"${options.idleLimit !== undefined ? `, idleTimeLimit: ${options.idleLimit}` : ""} });
window.tuiwrightOpenAt = ${openAt.toFixed(3)};
document.getElementById("first-failure")?.classList.add("current");
window.tuiwrightPlayer = player;
window.tuiwrightEnded = false;
player.addEventListener("ended", () => { window.tuiwrightEnded = true; });
for (const button of document.querySelectorAll("#markers button")) {
  // By index: the player's own marker time, so output at the same instant is included.
  button.addEventListener("click", () => player.seek({ marker: Number(button.dataset.marker) }));
}
</script>
</body>
</html>
`;
}
