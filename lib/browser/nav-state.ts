// A browser session's state as its Carbonyl manifest reads it off the screen: the URL bar's
// value, the buttons' enabled state (from their colour) and whether the page shows any text.
import { walk, type Outline, type OutlineNode } from "../outline/types.ts";
import { TuiwrightError } from "../protocol/errors.ts";

export type NavBar = { url: string; canGoBack: boolean; canGoForward: boolean; pageBlank: boolean };

export function readNavBar(outline: Outline): NavBar {
  if (outline.adapter !== "carbonyl") {
    throw new TuiwrightError("snapshot-unavailable", "the browser has not drawn its navigation bar ([❮][❯][↻][ URL ]) yet", {
      hint: "wait for it: tuiwright wait --ref @carbonyl.url",
    });
  }
  const byRef = new Map<string, OutlineNode>();
  for (const node of walk(outline.nodes)) if (node.ref.startsWith("@carbonyl.")) byRef.set(node.ref, node);
  const page = byRef.get("@carbonyl.page");
  return {
    url: byRef.get("@carbonyl.url")?.value ?? "",
    canGoBack: byRef.get("@carbonyl.back")?.value === "enabled",
    canGoForward: byRef.get("@carbonyl.forward")?.value === "enabled",
    pageBlank: !page || (page.children ?? []).length === 0,
  };
}

/** The buttons' state under the AWI-TTY names. */
export function navFlags(bar: Pick<NavBar, "canGoBack" | "canGoForward">): { can_go_back: boolean; can_go_forward: boolean } {
  return { can_go_back: bar.canGoBack, can_go_forward: bar.canGoForward };
}
