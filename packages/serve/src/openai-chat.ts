import { randomUUID } from "node:crypto";
import { PipelineValidationError } from "@junction/core";
import { ChatMessage, StreamingChunk, type ToolCall } from "@junction/llm";
import type { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { conversationHeader, withConversationId } from "./conversation-id.js";
import type { AppContext } from "./create-app.js";
import { checkDepth } from "./json-depth.js";
import { OpenAIRequestError, openAIErrorAnswer } from "./openai-error.js";
import { opened, runServed, streamServed, stringifyWire } from "./run-served.js";
import { readJSON } from "./security.js";
import type { ServedPipeline } from "./served-pipeline.js";

/**
 * The OpenAI-compatible routes: `GET /v1/models` lists every pipeline that takes chat messages and
 * answers with a message (agents, prompt → generator pipelines); `POST /v1/chat/completions` runs one
 * (`model` is the pipeline name), as JSON or as streamed `chat.completion.chunk` events ending in
 * `[DONE]`. Sampling parameters (`temperature`…) and client-side `tools` are not forwarded: the
 * pipeline decides its model and tools.
 */

const textPart = z.looseObject({ type: z.literal("text"), text: z.string() });
const content = z.union([z.string(), z.array(textPart), z.null()]).optional();
const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal("function").optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});
const messageSchema = z.discriminatedUnion("role", [
  z.looseObject({ role: z.enum(["system", "developer"]), content }),
  z.looseObject({ role: z.literal("user"), content, name: z.string().optional() }),
  z.looseObject({
    role: z.literal("assistant"),
    content,
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  z.looseObject({ role: z.literal("tool"), content, tool_call_id: z.string() }),
]);
const requestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(messageSchema).min(1, "send at least one message."),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  /** How many choices to generate: a pipeline answers one, so only 1 is accepted (checked in {@link parseRequest}). */
  n: z.number().nullable().optional(),
  /** Junction's extension: the conversation kept on the server (or the `Junction-Conversation-Id` header). */
  conversation_id: z.string().optional(),
});
type ChatRequest = z.output<typeof requestSchema>;

function textOf(value: z.output<typeof content>): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : value.map((part) => part.text).join("");
}

/** Turns OpenAI messages into ChatMessages (tool results find their call by `tool_call_id`). */
function toChatMessages(messages: ChatRequest["messages"]): ChatMessage[] {
  const calls = new Map<string, ToolCall>();
  const issues: { path: (string | number)[]; message: string }[] = [];
  const result: ChatMessage[] = [];
  messages.forEach((message, index) => {
    switch (message.role) {
      case "system":
      case "developer":
        result.push(ChatMessage.fromSystem(textOf(message.content)));
        return;
      case "user":
        result.push(ChatMessage.fromUser(textOf(message.content)));
        return;
      case "assistant": {
        const toolCalls: ToolCall[] = [];
        for (const call of message.tool_calls ?? []) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(call.function.arguments);
            checkDepth(parsed, "a tool call's arguments");
          } catch (error) {
            issues.push({
              path: ["messages", index, "tool_calls"],
              message: error instanceof SyntaxError ? "arguments must be JSON." : (error as Error).message,
            });
            continue;
          }
          const toolCall: ToolCall = {
            toolName: call.function.name,
            arguments: (parsed ?? {}) as Record<string, unknown>,
            id: call.id,
          };
          calls.set(call.id, toolCall);
          toolCalls.push(toolCall);
        }
        const text = textOf(message.content);
        result.push(
          ChatMessage.fromAssistant({
            ...(text !== "" ? { text } : {}),
            ...(toolCalls.length > 0 ? { toolCalls } : {}),
          }),
        );
        return;
      }
      case "tool": {
        const origin = calls.get(message.tool_call_id);
        if (origin === undefined) {
          issues.push({
            path: ["messages", index, "tool_call_id"],
            message: `no earlier assistant message has the tool call "${message.tool_call_id}".`,
          });
          return;
        }
        result.push(ChatMessage.fromTool(textOf(message.content), origin));
      }
    }
  });
  if (issues.length > 0) {
    throw new PipelineValidationError("invalid chat completion request.", { issues });
  }
  return result;
}

async function parseRequest(c: { req: { raw: Request } }, context: AppContext): Promise<ChatRequest> {
  const body = await readJSON(c.req.raw, context.bodyLimit);
  const parsed = requestSchema.safeParse(body);
  if (!parsed.success) {
    throw new PipelineValidationError("invalid chat completion request.", {
      issues: parsed.error.issues.map((issue) => ({
        path: issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
        message: issue.message,
      })),
    });
  }
  const n = parsed.data.n;
  if (n !== undefined && n !== null && n !== 1) {
    throw new OpenAIRequestError(
      400,
      "unsupported_value",
      "n",
      `n = ${n}: a Junction pipeline answers one choice per request. Leave n out or send n = 1, and send several requests for several answers.`,
    );
  }
  return parsed.data;
}

function chatPipeline(context: AppContext, model: string): ServedPipeline {
  const served = context.pipelines.get(model);
  if (served?.chat === undefined) {
    const models = [...context.pipelines.values()].filter((pipeline) => pipeline.chat !== undefined);
    throw new OpenAIRequestError(
      404,
      "model_not_found",
      "model",
      `there is no chat model "${model}". Models: ${models.map((pipeline) => `"${pipeline.name}"`).join(", ") || "none"}.`,
    );
  }
  return served;
}

/** The request object for a chat pipeline: the messages at the messages field's path. */
function chatRequest(served: ServedPipeline, messages: ChatMessage[]): Record<string, unknown> {
  const [first = "", second] = served.chat?.messages.path ?? [];
  return second === undefined ? { [first]: messages } : { [first]: { [second]: messages } };
}

/** The reply message from a run's outputs. */
function replyOf(served: ServedPipeline, outputs: Record<string, unknown>): ChatMessage | undefined {
  let value: unknown = outputs;
  for (const key of served.chat?.reply.path ?? []) {
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (Array.isArray(value)) value = value[value.length - 1];
  return value instanceof ChatMessage ? value : undefined;
}

function finishReason(message: ChatMessage | undefined): string {
  const reason = message?.meta.finish_reason;
  return reason === "length" || reason === "content_filter" ? reason : "stop";
}

function usageOf(message: ChatMessage | undefined) {
  const usage = message?.meta.usage;
  return {
    prompt_tokens: usage?.prompt_tokens ?? 0,
    completion_tokens: usage?.completion_tokens ?? 0,
    total_tokens: usage?.total_tokens ?? 0,
  };
}

/** Mounts `/v1/models` and `/v1/chat/completions`. */
export function mountOpenAI(app: Hono, context: AppContext): void {
  app.get("/v1/models", (c) =>
    c.json({
      object: "list",
      data: [...context.pipelines.values()]
        .filter((pipeline) => pipeline.chat !== undefined)
        .map((pipeline) => ({ id: pipeline.name, object: "model", created: 0, owned_by: "junction" })),
    }),
  );
  app.get("/v1/models/:model", (c) => {
    const served = chatPipeline(context, c.req.param("model"));
    return c.json({ id: served.name, object: "model", created: 0, owned_by: "junction" });
  });

  app.post("/v1/chat/completions", async (c) => {
    const request = await parseRequest(c, context);
    const served = chatPipeline(context, request.model);
    const conversationId = request.conversation_id ?? c.req.header(conversationHeader);
    const input = withConversationId(
      served,
      chatRequest(served, toChatMessages(request.messages)),
      conversationId,
    ) as Record<string, unknown>;
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    if (request.stream !== true) {
      const answer = await runServed(served, input, { ...context.run, signal: c.req.raw.signal });
      const reply = replyOf(served, answer.outputs);
      return c.json({
        id,
        object: "chat.completion",
        created,
        model: served.name,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: reply?.text ?? "", refusal: null },
            logprobs: null,
            finish_reason: finishReason(reply),
          },
        ],
        usage: usageOf(reply),
      });
    }
    // Invalid input → 400 before the stream starts: the run's first event is awaited first.
    const controller = new AbortController();
    const events = await opened(streamServed(served, input, { ...context.run, signal: controller.signal }));
    const includeUsage = request.stream_options?.include_usage === true;
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => controller.abort(new DOMException("The client disconnected.", "AbortError")));
      const chunk = (
        delta: Record<string, unknown>,
        finish: string | null,
        extra: Record<string, unknown> = {},
      ) =>
        stream.writeSSE({
          data: stringifyWire({
            id,
            object: "chat.completion.chunk",
            created,
            model: served.name,
            choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
            ...extra,
          }),
        });
      try {
        await chunk({ role: "assistant", content: "" }, null);
        let streamed = false;
        let reply: ChatMessage | undefined;
        for await (const event of events) {
          if (stream.aborted) break;
          if (event.event === "chunk") {
            const data = event.data as { component: string; chunk: unknown };
            if (
              data.component === served.chat?.replyComponent &&
              data.chunk instanceof StreamingChunk &&
              data.chunk.content !== ""
            ) {
              streamed = true;
              await chunk({ content: data.chunk.content }, null);
            }
          } else if (event.event === "run_end") {
            reply = replyOf(served, (event.data as { outputs: Record<string, unknown> }).outputs);
          }
        }
        if (stream.aborted) return;
        if (!streamed && reply?.text !== undefined) await chunk({ content: reply.text }, null);
        await chunk({}, finishReason(reply));
        if (includeUsage) {
          await stream.writeSSE({
            data: stringifyWire({
              id,
              object: "chat.completion.chunk",
              created,
              model: served.name,
              choices: [],
              usage: usageOf(reply),
            }),
          });
        }
        await stream.writeSSE({ data: "[DONE]" });
      } catch (error) {
        if (!stream.aborted) await stream.writeSSE({ data: stringifyWire(openAIErrorAnswer(error).body) });
      }
    });
  });
}
