import { expect, test } from "bun:test";
import { parseHTML } from "linkedom";
import { extractView, newListCache, noteMutation } from "../../../lib/desktop/extract-view.ts";
import { renderViewBody } from "../../../lib/desktop/render-markdown.ts";

function page(html: string): any {
  return parseHTML(`<!doctype html><html><body>${html}</body></html>`).document;
}

test("the developer contract of §3 in one view", () => {
  const document = page(`<main view="ConversationDetail">
    <h1 entity="title:conversation_title">Project TUI</h1>
    <p>Description text...</p>
    <script>ignored()</script><p hidden>not shown</p>
    <ul list="message[]:message_list">
      <li key="msg_101" data-value='{"id": "msg_101"}'>Hello <button operation="reply" args='{"message": "message"}'>Reply</button></li>
      <li key="msg_102" data-value='not json'>World</li>
      <li>No key</li>
    </ul>
    <button operation="send_message" args='{"content": "string", "urgent": "boolean?"}'>Send</button>
    <button operation="broken" args='{oops'>Broken</button>
  </main>`);
  const model = extractView(document, 0);
  expect(model.name).toBe("ConversationDetail");
  expect(model.blocks[2]).toEqual({
    kind: "list", id: "message_list", type: "message", title: "Message List",
    items: [
      { label: "Hello", key: "msg_101", value: { id: "msg_101" } },
      { label: "World", key: "msg_102", value: "not json" },
      { label: "No key", key: null, value: "No key" },
    ],
  });
  expect(renderViewBody(model)).toBe([
    "# [Project TUI](entity:conversation_title)",
    "Description text...",
    "",
    "# [Message List](list:message_list)",
    "1. [Hello](item:message_list[0])",
    "2. [World](item:message_list[1])",
    "3. [No key](item:message_list[2])",
    "",
    "# Operation",
    "- [Reply](operation:reply)",
    "    - Arguments:",
    "        - message: message (an item of message_list, e.g. message_list[0])",
    "- [SendMessage (Send)](operation:send_message)",
    "    - Arguments:",
    "        - content: string",
    "        - urgent: boolean (optional)",
    "- [Broken [broken args: args is not JSON: JSON Parse error: Expected '}'](operation:broken)",
  ].map((line) => (line ? `        ${line}` : "")).join("\n").replace("[Broken [broken args: args is not JSON: JSON Parse error: Expected '}']", "[Broken \\[broken args: args is not JSON: JSON Parse error: Expected '}'\\]]"));
});

test("a list no mutation touched is reused, not re-read; one inside it is re-read", async () => {
  const document = page(`<body view="V"><p class="n">0</p><ul list="row[]:rows"><li key="a">a</li></ul></body>`);
  const cache = newListCache();
  const observer = new (document.defaultView.MutationObserver)((records: any[]) => { for (const r of records) noteMutation(cache, r); });
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  const first = extractView(document, 0, cache);
  document.querySelector(".n").textContent = "1";
  await Promise.resolve();
  const second = extractView(document, 0, cache);
  expect(second.blocks[1]).toBe(first.blocks[1]!);
  expect(second.blocks[0]).toEqual({ kind: "text", text: "1" });
  document.querySelector("li").textContent = "changed";
  await Promise.resolve();
  const third = extractView(document, 0, cache);
  expect(third.blocks[1]).not.toBe(first.blocks[1]!);
  expect((third.blocks[1] as any).items[0].label).toBe("changed");
  // An item removed (it has no parent any more to say which list it left).
  document.querySelector("li").remove();
  await Promise.resolve();
  expect((extractView(document, 0, cache).blocks[1] as any).items).toEqual([]);
  document.querySelector("ul").setAttribute("title", "Renamed");
  await Promise.resolve();
  expect((extractView(document, 0, cache).blocks[1] as any).title).toBe("Renamed");
  // A list's text emptied (only a removal record) and an item moved to another list.
  document.querySelector("ul").innerHTML = '<li key="x">x</li>';
  document.querySelector("[view]").insertAdjacentHTML("beforeend", '<ol list="row[]:other"></ol>');
  await Promise.resolve();
  extractView(document, 0, cache);
  document.querySelector("ul li").textContent = "";
  await Promise.resolve();
  expect((extractView(document, 0, cache).blocks[1] as any).items[0].label).toBe("");
  document.querySelector("ol").appendChild(document.querySelector("ul li"));
  await Promise.resolve();
  const moved = extractView(document, 0, cache);
  expect((moved.blocks[1] as any).items).toEqual([]);
  expect((moved.blocks[2] as any).items.map((i: any) => i.key)).toEqual(["x"]);
});
