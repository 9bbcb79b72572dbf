// The snapshot facet: the screen in each format (text, ansi, cells, outline, svg, png), cropped
// to selected nodes, with the session's meta. PNG is rasterised here, in the worker, never on
// the daemon's thread that serves every client: a huge screen costs this session's time only.
import { outermost, type OutlineNode } from "../outline/types.ts";
import { renderSvg } from "../render/svg.ts";
import { textWithoutPixels, withoutPixels } from "../terminal/pixels.ts";
import { requireScrollbackFormat } from "../protocol/snapshot-scrollback.ts";
import type { SnapshotReply, WorkerOps } from "../link/messages.ts";
import type { SessionCore } from "./session-core.ts";

export class SnapshotFacet {
  readonly #core: SessionCore;

  constructor(core: SessionCore) {
    this.#core = core;
  }

  async snapshot(params: WorkerOps["snapshot"][0]): Promise<SnapshotReply> {
    requireScrollbackFormat(params);
    const reply = this.#draw(params);
    if (params.format !== "png") return reply;
    const { renderPng } = await import("../render/png.ts");
    const { svg, ...rest } = reply;
    return { ...rest, png: Buffer.from(await renderPng(svg!)).toString("base64") };
  }

  #draw(params: WorkerOps["snapshot"][0]): SnapshotReply {
    const { screen, outline } = this.#core;
    screen.sync();
    const reply: SnapshotReply = {
      format: params.format,
      revision: screen.revision,
      hash: screen.hash,
      cols: screen.cols,
      rows: screen.rows,
    };
    // A node inside another selected node is printed with it, not again.
    const selected = params.select === undefined ? null : outermost(outline.select(params.select));
    if (params.format === "outline") {
      const issued = outline.issue();
      reply.outline = { adapter: issued.adapter, nodes: selected ?? issued.nodes };
    } else if (params.format === "text") {
      const pixels = params.raw ? "" : outline.pixels();
      reply.text = selected ? this.#crop(selected, pixels) : textWithoutPixels(screen.text(params.scrollback), pixels);
    } else if (params.format === "svg" || params.format === "png") {
      const annotations = params.annotate === undefined ? [] : outline.select(params.annotate, "--annotate").map((n) => ({ bbox: n.bbox, label: n.ref }));
      reply.svg = renderSvg(screen.grid(), { annotations, ...(params.chrome === undefined ? {} : { chrome: params.chrome }) });
    } else if (params.format === "ansi") {
      reply.ansi = screen.ansi(params.scrollback);
    } else {
      reply.cells = screen.cells(params.scrollback);
    }
    const rows = reply.text ?? reply.ansi;
    if (rows !== undefined) {
      // AWI-TTY's shape: every row of the viewport, blank ones included.
      reply.width = reply.cols;
      reply.height = reply.rows;
      reply.lines = rows.split(/\r?\n/);
      if (!selected && params.scrollback === 0) while (reply.lines.length < screen.rows) reply.lines.push("");
    }
    if (params.includeMeta) reply.meta = this.#core.meta();
    return reply;
  }

  /** The text inside each node's box, boxes separated by a blank line. */
  #crop(nodes: OutlineNode[], pixels: string): string {
    const rows = withoutPixels(this.#core.screen.grid(), pixels).lines;
    return nodes.map((node) => {
      const { row, col, rows: height, cols } = node.bbox;
      return rows.slice(row, row + height).map((line) => line.chars.slice(col, col + cols).join("").replace(/ +$/, "")).join("\n");
    }).join("\n\n");
  }
}
