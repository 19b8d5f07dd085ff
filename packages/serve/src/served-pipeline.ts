import {
  type AnyComponent,
  describePipelineIO,
  isComponent,
  namedTypeName,
  Pipeline,
  type PipelineDocument,
  type PipelineIO,
  type PipelineIOField,
} from "@junction/core";
import type { z } from "zod";

/**
 * One pipeline (or one component, such as an Agent, wrapped in a pipeline of its own) as the server
 * sees it: its name, its JSON interface, and whether it can answer chat completions.
 */

/** Where the chat messages go in and the reply comes out (for the OpenAI-compatible routes). */
export interface ChatMapping {
  /** The request field taking `ChatMessage[]`. */
  readonly messages: PipelineIOField;
  /** The response field holding the reply (`ChatMessage`, or `ChatMessage[]` whose last one is the reply). */
  readonly reply: PipelineIOField;
  /** The component whose streamed chunks are the reply's text. */
  readonly replyComponent: string;
}

/** A pipeline prepared for serving. */
export interface ServedPipeline {
  /** The name in URLs, tool lists and model lists. */
  readonly name: string;
  /** From `metadata.description`, or a sentence naming the pipeline. */
  readonly description: string;
  /** The pipeline (a served component is wrapped in a one-component pipeline named after it). */
  readonly pipeline: Pipeline;
  /** Its JSON interface. */
  readonly io: PipelineIO;
  /** The document, or `null` when the pipeline holds something a document cannot (an unregistered function). */
  readonly document: PipelineDocument | null;
  /** The mermaid diagram. */
  readonly mermaid: string;
  /** Set when the pipeline takes chat messages and answers with a message. */
  readonly chat: ChatMapping | undefined;
}

/** What `createApp({ pipelines })` accepts for each name: a pipeline, or a component (an Agent…). */
export type Servable = Pipeline | AnyComponent;

const namePattern = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/**
 * Prepares a pipeline or component for serving. Fails when the name is not URL- and tool-safe or a
 * mandatory input cannot travel as JSON (the error names the socket).
 *
 * @param name - the name (letters, digits, `_`, `-`, `.`; at most 64 characters)
 * @param servable - a pipeline, or a component to wrap
 */
export function preparePipeline(name: string, servable: Servable): ServedPipeline {
  if (!namePattern.test(name)) {
    throw new TypeError(
      `serve: the pipeline name "${name}" must be 1–64 letters, digits, "_", "-" or "." (it is used in URLs and as an MCP tool name).`,
    );
  }
  let pipeline: Pipeline;
  if (servable instanceof Pipeline) pipeline = servable;
  else if (isComponent(servable)) pipeline = new Pipeline().addComponent(name, servable);
  else throw new TypeError(`serve: "${name}" is neither a Pipeline nor a component.`);
  const io = describePipelineIO(pipeline, { where: `serve: pipeline "${name}"` });
  const description = pipeline.metadata.description;
  let document: PipelineDocument | null = null;
  try {
    document = pipeline.toJSON();
  } catch {
    document = null;
  }
  return {
    name,
    description:
      typeof description === "string" && description.length > 0
        ? description
        : `Runs the Junction pipeline "${name}".`,
    pipeline,
    io,
    document,
    mermaid: pipeline.toMermaid(),
    chat: chatMapping(io),
  };
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType };
    if (["optional", "default", "nullable", "readonly"].includes(def.type) && def.innerType)
      current = def.innerType;
    else return current;
  }
}

function isChatMessage(schema: z.ZodType): boolean {
  return namedTypeName(unwrap(schema)) === "ChatMessage";
}

function isChatMessageList(schema: z.ZodType): boolean {
  const def = unwrap(schema)._zod.def as { type: string; element?: z.ZodType };
  return def.type === "array" && def.element !== undefined && isChatMessage(def.element);
}

const replyPreference = ["last_message", "replies", "messages"];

/**
 * A pipeline answers chat completions when exactly one input takes `ChatMessage[]` and every other
 * input is optional, and an output holds a `ChatMessage` (preferred: `last_message`) or a list of them
 * (`replies`, `messages`: the last one is the reply).
 */
function chatMapping(io: PipelineIO): ChatMapping | undefined {
  const lists = io.inputs.filter((field) => isChatMessageList(field.schema));
  if (lists.length !== 1) return undefined;
  const messages = lists[0] as PipelineIOField;
  if (io.inputs.some((field) => field !== messages && field.mandatory)) return undefined;
  const candidates = io.outputs.filter(
    (field) => isChatMessage(field.schema) || isChatMessageList(field.schema),
  );
  if (candidates.length === 0) return undefined;
  const rank = (field: PipelineIOField): number => {
    const socket = field.path[field.path.length - 1] ?? "";
    const index = replyPreference.indexOf(socket);
    return (isChatMessage(field.schema) ? 0 : 10) + (index === -1 ? replyPreference.length : index);
  };
  const reply = [...candidates].sort((a, b) => rank(a) - rank(b))[0] as PipelineIOField;
  const replyComponent = (reply.sockets[0] ?? "").split(".")[0] ?? "";
  return { messages, reply, replyComponent };
}
