// Reading a request of any of the four APIs the same way: the latest prompt the user typed,
// how many tool results followed it (the script's step), and the tools the CLI declared.
export type Api = "anthropic" | "chat" | "responses" | "gemini";
export type DeclaredTool = { name: string; schema: Record<string, unknown> };
export type Conversation = {
  prompt: string; step: number; tools: DeclaredTool[]; stream: boolean; model: string; lastToolOutput?: string;
  /** Anthropic: the ids of the tool results the request carries (the server knows which prompt
   * each call it made answered: after an interrupted turn Claude Code merges messages, so
   * counting messages miscounts the step). */
  resultIds?: string[];
};

type Json = Record<string, unknown>;
const arr = (x: unknown): Json[] => (Array.isArray(x) ? (x as Json[]) : []);
const str = (x: unknown): string => (typeof x === "string" ? x : "");

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content).map((part) => str(part.text) || str(part.input_text)).filter(Boolean).join("\n");
}

function anthropic(body: Json): Conversation {
  const messages = arr(body.messages);
  // What the user typed: text that is not a <system-reminder> the CLI adds. Claude Code sends a
  // prompt typed after a denied tool call in the same message as that call's result.
  // A failed prompt and the next one can arrive as two text blocks of one message: the last one
  // is the prompt.
  const typed = (m: Json) => (typeof m.content === "string" ? [m.content] : arr(m.content).filter((b) => b.type === "text").map((b) => str(b.text)))
    .map((text) => text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim()).filter(Boolean);
  const isPrompt = (m: Json) => m.role === "user" && (typed(m).length > 0 || !arr(m.content).some((b) => b.type === "tool_result"));
  const isToolResult = (m: Json) => arr(m.content).some((b) => b.type === "tool_result");
  let at = -1;
  for (let i = messages.length - 1; i >= 0; i--) if (isPrompt(messages[i]!)) { at = i; break; }
  const step = messages.slice(at + 1).filter((m) => m.role === "user" && isToolResult(m)).length;
  const tools = arr(body.tools).map((t) => ({ name: str(t.name), schema: (t.input_schema ?? {}) as Json }));
  const resultIds = messages.flatMap((m) => arr(m.content).filter((b) => b.type === "tool_result").map((b) => str(b.tool_use_id)));
  return { prompt: at < 0 ? "" : (typed(messages[at]!).at(-1) ?? ""), step, tools, stream: body.stream === true, model: str(body.model), resultIds };
}

function chat(body: Json): Conversation {
  const messages = arr(body.messages);
  let at = -1;
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "user") { at = i; break; }
  const step = messages.slice(at + 1).filter((m) => m.role === "assistant" && arr(m.tool_calls).length > 0).length;
  const tools = arr(body.tools).map((t) => {
    const fn = (t.function ?? t) as Json;
    return { name: str(fn.name), schema: (fn.parameters ?? {}) as Json };
  });
  return { prompt: at < 0 ? "" : textOf(messages[at]!.content), step, tools, stream: body.stream === true, model: str(body.model) };
}

function responses(body: Json): Conversation {
  const input = typeof body.input === "string" ? [{ type: "message", role: "user", content: body.input }] : arr(body.input);
  const isUser = (item: Json) => (item.type === "message" || item.type === undefined) && item.role === "user";
  // Codex sends its environment and instructions as user messages too; they start with a tag.
  const isPrompt = (item: Json) => isUser(item) && !/^\s*<(environment_context|user_instructions|permissions|INSTRUCTIONS)/i.test(textOf(item.content)) && !/^# AGENTS\.md/.test(textOf(item.content));
  let at = -1;
  for (let i = input.length - 1; i >= 0; i--) if (isPrompt(input[i]!)) { at = i; break; }
  const step = input.slice(at + 1).filter((item) => /_call_output$/.test(str(item.type))).length;
  const tools = arr(body.tools).map((t) => ({ name: str(t.name) || str(t.type), schema: (t.parameters ?? t.format ?? {}) as Json }));
  const outputs = input.filter((item) => /_call_output$/.test(str(item.type)));
  const last = outputs.at(-1)?.output;
  const lastToolOutput = typeof last === "string" ? last : JSON.stringify(last ?? "");
  return { prompt: at < 0 ? "" : textOf(input[at]!.content), step, tools, stream: body.stream === true, model: str(body.model), lastToolOutput };
}

function gemini(body: Json, stream: boolean, model: string): Conversation {
  const contents = arr(body.contents);
  const isResponse = (c: Json) => arr(c.parts).some((p) => p.functionResponse !== undefined);
  let at = -1;
  for (let i = contents.length - 1; i >= 0; i--) if (contents[i]!.role === "user" && !isResponse(contents[i]!)) { at = i; break; }
  const step = contents.slice(at + 1).filter((c) => c.role === "user" && isResponse(c)).length;
  const tools = arr(body.tools).flatMap((t) => arr(t.functionDeclarations).map((f) => ({ name: str(f.name), schema: (f.parametersJsonSchema ?? f.parameters ?? {}) as Json })));
  return { prompt: at < 0 ? "" : arr(contents[at]!.parts).map((p) => str(p.text)).join("\n"), step, tools, stream, model };
}

export function readConversation(api: Api, body: Json, path: string): Conversation {
  if (api === "anthropic") return anthropic(body);
  if (api === "chat") return chat(body);
  if (api === "responses") return responses(body);
  const model = /models\/([^:/]+)/.exec(path)?.[1] ?? "gemini";
  return gemini(body, path.includes("streamGenerateContent"), model);
}

const SHELL_TOOLS = ["bash", "Bash", "shell", "shell_command", "exec_command", "run_shell_command", "local_shell"];
const WRITE_TOOLS = ["write", "Write", "write_file", "create_file"];

function props(schema: Record<string, unknown>): Record<string, { type?: string }> {
  return ((schema.properties ?? {}) as Record<string, { type?: string }>);
}

/** The CLI's own shell tool with `command` put in the shape its schema asks for. */
export function shellCall(tools: DeclaredTool[], command: string): { name: string; input: Record<string, unknown> } {
  const tool = SHELL_TOOLS.map((name) => tools.find((t) => t.name === name)).find(Boolean);
  if (!tool) throw new Error(`the request declares no shell tool (tools: ${tools.map((t) => t.name).join(", ") || "none"})`);
  const p = props(tool.schema);
  // Codex runs commands in a sandbox and asks only for escalation: ask for it, so the CLI shows
  // its approval screen (as a model does when a command must write outside the sandbox).
  if (p.cmd) return { name: tool.name, input: { cmd: command, ...(p.sandbox_permissions ? { sandbox_permissions: "require_escalated", justification: `Run ${command}?` } : {}) } };
  if (p.command?.type === "array") return { name: tool.name, input: { command: ["bash", "-lc", command] } };
  return { name: tool.name, input: { command } };
}

/** The CLI's own file-writing tool with path and content in its argument names. */
export function writeCall(tools: DeclaredTool[], path: string, content: string): { name: string; input: Record<string, unknown> } {
  const tool = WRITE_TOOLS.map((name) => tools.find((t) => t.name === name)).find(Boolean);
  if (!tool) throw new Error(`the request declares no file-writing tool (tools: ${tools.map((t) => t.name).join(", ") || "none"})`);
  const p = props(tool.schema);
  const key = ["file_path", "filePath", "path", "absolute_path"].find((k) => p[k]) ?? "path";
  return { name: tool.name, input: { [key]: path, content } };
}

const QUESTION_TOOLS = ["AskUserQuestion", "ask_user", "question", "request_user_input"];

/** The CLI's own tool for asking the user a multiple-choice question, its arguments shaped by
 * the schema the request declares (each CLI names the fields a little differently). */
export function questionCall(tools: DeclaredTool[], ask: { question: string; header: string; options: string[] }): { name: string; input: Record<string, unknown> } {
  const tool = QUESTION_TOOLS.map((name) => tools.find((t) => t.name === name)).find(Boolean);
  if (!tool) throw new Error(`the request declares no question tool (tools: ${tools.map((t) => t.name).join(", ") || "none"})`);
  const list = props(tool.schema).questions as { items?: Record<string, unknown> } | undefined;
  const item = props((list?.items ?? {}) as Record<string, unknown>);
  const options = ask.options.map((label) => ({ label, description: `the ${label.toLowerCase()} one` }));
  const question: Record<string, unknown> = { question: ask.question, header: ask.header, options };
  if (item.type) question.type = "choice";
  if (item.multiSelect) question.multiSelect = false;
  if (item.multiple) question.multiple = false;
  if (item.id) question.id = "q1";
  return { name: tool.name, input: { questions: [question] } };
}
