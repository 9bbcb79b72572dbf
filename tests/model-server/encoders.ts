// One reply (resolved parts: text or tool calls) in each API's wire format: a list of SSE
// events to stream, or one JSON body when the client did not ask for a stream.
export type Resolved = { text: string } | { call: { id: string; name: string; input: Record<string, unknown> } };
export type Event = { event?: string; data: unknown };

const usage = { input_tokens: 10, output_tokens: 10 };

export function anthropicEvents(parts: Resolved[], model: string, chunk: (t: string) => string[]): Event[] {
  const id = "msg_tuiwright";
  const out: Event[] = [{ event: "message_start", data: { type: "message_start", message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } } }];
  parts.forEach((part, index) => {
    if ("text" in part) {
      out.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } });
      for (const t of chunk(part.text)) out.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "text_delta", text: t } } });
    } else {
      out.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "tool_use", id: part.call.id, name: part.call.name, input: {} } } });
      out.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(part.call.input) } } });
    }
    out.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  const stop = parts.some((p) => "call" in p) ? "tool_use" : "end_turn";
  out.push({ event: "message_delta", data: { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } } });
  out.push({ event: "message_stop", data: { type: "message_stop" } });
  return out;
}

export function anthropicJson(parts: Resolved[], model: string): unknown {
  return {
    id: "msg_tuiwright", type: "message", role: "assistant", model, stop_sequence: null, usage,
    stop_reason: parts.some((p) => "call" in p) ? "tool_use" : "end_turn",
    content: parts.map((p) => ("text" in p ? { type: "text", text: p.text } : { type: "tool_use", id: p.call.id, name: p.call.name, input: p.call.input })),
  };
}

export function chatEvents(parts: Resolved[], model: string, chunk: (t: string) => string[]): Event[] {
  const base = { id: "chatcmpl-tuiwright", object: "chat.completion.chunk", created: 0, model };
  const out: Event[] = [{ data: { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] } }];
  let toolIndex = 0;
  for (const part of parts) {
    if ("text" in part) {
      for (const t of chunk(part.text)) out.push({ data: { ...base, choices: [{ index: 0, delta: { content: t }, finish_reason: null }] } });
    } else {
      out.push({ data: { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: toolIndex++, id: part.call.id, type: "function", function: { name: part.call.name, arguments: JSON.stringify(part.call.input) } }] }, finish_reason: null }] } });
    }
  }
  const finish = parts.some((p) => "call" in p) ? "tool_calls" : "stop";
  out.push({ data: { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } } });
  out.push({ data: "[DONE]" });
  return out;
}

export function chatJson(parts: Resolved[], model: string): unknown {
  const text = parts.flatMap((p) => ("text" in p ? [p.text] : [])).join("");
  const calls = parts.flatMap((p) => ("call" in p ? [{ id: p.call.id, type: "function", function: { name: p.call.name, arguments: JSON.stringify(p.call.input) } }] : []));
  return {
    id: "chatcmpl-tuiwright", object: "chat.completion", created: 0, model,
    choices: [{ index: 0, message: { role: "assistant", content: text, ...(calls.length ? { tool_calls: calls } : {}) }, finish_reason: calls.length ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

export function responsesEvents(parts: Resolved[], model: string, chunk: (t: string) => string[]): Event[] {
  let seq = 0;
  const ev = (type: string, rest: Record<string, unknown>): Event => ({ event: type, data: { type, sequence_number: seq++, ...rest } });
  const response = (status: string, output: unknown[]) => ({ id: "resp_tuiwright", object: "response", created_at: 0, status, model, output, usage: status === "completed" ? { input_tokens: 10, output_tokens: 10, total_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } : null });
  const out: Event[] = [ev("response.created", { response: response("in_progress", []) }), ev("response.in_progress", { response: response("in_progress", []) })];
  const done: unknown[] = [];
  parts.forEach((part, output_index) => {
    if ("text" in part) {
      const id = `msg_${output_index}`;
      out.push(ev("response.output_item.added", { output_index, item: { id, type: "message", status: "in_progress", role: "assistant", content: [] } }));
      out.push(ev("response.content_part.added", { item_id: id, output_index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }));
      for (const t of chunk(part.text)) out.push(ev("response.output_text.delta", { item_id: id, output_index, content_index: 0, delta: t }));
      out.push(ev("response.output_text.done", { item_id: id, output_index, content_index: 0, text: part.text }));
      const content = { type: "output_text", text: part.text, annotations: [] };
      out.push(ev("response.content_part.done", { item_id: id, output_index, content_index: 0, part: content }));
      const item = { id, type: "message", status: "completed", role: "assistant", content: [content] };
      out.push(ev("response.output_item.done", { output_index, item }));
      done.push(item);
    } else {
      const item = { id: `fc_${output_index}`, type: "function_call", status: "completed", call_id: part.call.id, name: part.call.name, arguments: JSON.stringify(part.call.input) };
      out.push(ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } }));
      out.push(ev("response.function_call_arguments.delta", { item_id: item.id, output_index, delta: item.arguments }));
      out.push(ev("response.function_call_arguments.done", { item_id: item.id, output_index, arguments: item.arguments }));
      out.push(ev("response.output_item.done", { output_index, item }));
      done.push(item);
    }
  });
  out.push(ev("response.completed", { response: response("completed", done) }));
  return out;
}

export function geminiEvents(parts: Resolved[], chunk: (t: string) => string[]): Event[] {
  const out: Event[] = [];
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 };
  const piece = (p: Record<string, unknown>, finish?: string) => ({ data: { candidates: [{ content: { role: "model", parts: [p] }, index: 0, ...(finish ? { finishReason: finish } : {}) }], ...(finish ? { usageMetadata } : {}), modelVersion: "tuiwright" } });
  for (const part of parts) {
    if ("text" in part) for (const t of chunk(part.text)) out.push(piece({ text: t }));
    else out.push(piece({ functionCall: { id: part.call.id, name: part.call.name, args: part.call.input } }));
  }
  // The last event carries finishReason (an empty text part, as the real API does).
  out.push(piece({ text: "" }, "STOP"));
  return out;
}

export function geminiJson(parts: Resolved[]): unknown {
  return {
    candidates: [{ content: { role: "model", parts: parts.map((p) => ("text" in p ? { text: p.text } : { functionCall: { name: p.call.name, args: p.call.input } })) }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
  };
}
