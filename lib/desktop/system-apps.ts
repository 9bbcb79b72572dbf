// The two system apps of §9.5, auto-installed on every desktop, never closable, serialisable.
// They are ordinary HTML5 apps (same worker, same contract) whose source ships in the binary.
import type { AppManifest } from "./app-manifest.ts";

export type BuiltinApp = { manifest: AppManifest; source: string };

const CHAT = String.raw`
const body = document.body;
body.setAttribute("view", "Conversation");
body.innerHTML = '<h1>Conversation with the user</h1>' +
  '<p>The user writes here; answer with send_message.</p>' +
  '<ol list="message[]:message_list" title="Messages"></ol>' +
  '<button operation="send_message" args=\'{"content": "string"}\'>Send</button>';
const list = body.querySelector("ol");
let messages = [];
function render() {
  list.innerHTML = "";
  messages.forEach((m, i) => {
    const li = document.createElement("li");
    li.setAttribute("key", "msg_" + i);
    li.setAttribute("data-value", JSON.stringify({ id: "msg_" + i, from: m.from, content: m.content }));
    li.textContent = m.from + ": " + m.content;
    list.appendChild(li);
  });
}
body.addEventListener("aotui:operation", (event) => {
  const { operation, args } = event.detail;
  if (operation === "send_message") messages.push({ from: "agent", content: String(args.content) });
  else if (operation === "user_message") messages.push({ from: "user", content: String(args.content) });
  else return;
  render();
});
aotui.onSerialize(() => ({ messages }));
aotui.onRestore((data) => { messages = Array.isArray(data && data.messages) ? data.messages : []; render(); });
`;

const THOUGHTS = String.raw`
const body = document.body;
body.setAttribute("view", "Thoughts");
body.innerHTML = '<h1>Thought Recorder</h1>' +
  '<p>Your own notes between turns; the user does not see them.</p>' +
  '<ol list="thought[]:thought_list" title="Thoughts"></ol>' +
  '<button operation="record_thought" args=\'{"thought": "string"}\'>Record</button>' +
  '<button operation="clear_thoughts">Clear</button>';
const list = body.querySelector("ol");
let thoughts = [];
function render() {
  list.innerHTML = "";
  thoughts.forEach((t, i) => {
    const li = document.createElement("li");
    li.setAttribute("key", "thought_" + i);
    li.setAttribute("data-value", JSON.stringify({ id: "thought_" + i, text: t }));
    li.textContent = t;
    list.appendChild(li);
  });
}
body.addEventListener("aotui:operation", (event) => {
  const { operation, args } = event.detail;
  if (operation === "record_thought") thoughts.push(String(args.thought));
  else if (operation === "clear_thoughts") thoughts = [];
  else return;
  render();
});
aotui.onSerialize(() => ({ thoughts }));
aotui.onRestore((data) => { thoughts = Array.isArray(data && data.thoughts) ? data.thoughts : []; render(); });
`;

export const SYSTEM_APPS: BuiltinApp[] = [
  { manifest: { id: "system.chat", name: "ChatWithUser", version: "1.0.0", entry: "chat.js", system: true, permissions: [] }, source: CHAT },
  { manifest: { id: "system.thoughts", name: "ThoughtRecorder", version: "1.0.0", entry: "thoughts.js", system: true, permissions: [] }, source: THOUGHTS },
];

/** The operation the runtime (not the agent) uses to hand the chat app a user's message. */
export const USER_MESSAGE_OPERATION = "user_message";
