import {
  type ComponentSerializer,
  type DeserializeContext,
  type Issue,
  SerializationError,
  type SerializeContext,
} from "@junction/core";
import { isZodSchema, type OutputSchema } from "../output/output-schema.js";
import { schemaToJSON } from "../state/schema-json.js";
import type { AgentParams } from "./agent-config.js";
import {
  conversationFromJSON,
  conversationToJSON,
  historyLimitFromJSON,
  historyLimitToJSON,
} from "./conversation-json.js";
import { type AgentHook, type AgentHooks, hookPoints } from "./hooks.js";
import { stateSchemaFromJSON, stateSchemaToJSON } from "./state-schema-json.js";
import { toolsFromJSON, toolsToJSON } from "./tools-json.js";

function hookFunction(hook: AgentHook): (...args: any[]) => unknown {
  return typeof hook === "function" ? hook : hook.run;
}

function hooksToJSON(hooks: AgentHooks, context: SerializeContext): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const point of hookPoints) {
    const value = hooks[point];
    if (value === undefined) continue;
    const list: readonly AgentHook[] = Array.isArray(value) ? value : [value as AgentHook];
    out[point] = list.map((hook, index) => context.functionName(hookFunction(hook), ["hooks", point, index]));
  }
  return out;
}

function hooksFromJSON(doc: unknown, context: DeserializeContext): AgentHooks | undefined {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    context.issues.push({
      path: [...context.path, "hooks"],
      message: "must be an object { hookPoint: [functionName, ...] }.",
    });
    return undefined;
  }
  const out: Record<string, AgentHook[]> = {};
  for (const [point, names] of Object.entries(doc)) {
    if (!Array.isArray(names)) {
      context.issues.push({
        path: [...context.path, "hooks", point],
        message: "must be a list of registered function names.",
      });
      continue;
    }
    const hooks: AgentHook[] = [];
    names.forEach((name, index) => {
      const fn = context.resolveFunction(name, ["hooks", point, index]);
      if (fn !== undefined) hooks.push(fn as AgentHook);
    });
    out[point] = hooks;
  }
  return out;
}

/** Writes `outputSchema` as JSON Schema (a JSON Schema option as given) with core's socket-schema writer. */
function outputSchemaToJSON(schema: OutputSchema, context: SerializeContext): Record<string, unknown> {
  if (!isZodSchema(schema)) return structuredClone(schema) as Record<string, unknown>;
  const issues: Issue[] = [];
  const json = schemaToJSON(schema, [...context.path, "outputSchema"], issues);
  if (issues.length > 0) {
    throw new SerializationError("Agent: the outputSchema cannot be written as JSON Schema.", { issues });
  }
  return json;
}

function writeOutputOptions(params: AgentParams, out: Record<string, unknown>, context: SerializeContext) {
  const structured = params.outputSchema !== undefined;
  if (params.outputSchema !== undefined) out.outputSchema = outputSchemaToJSON(params.outputSchema, context);
  if (structured || params.outputStrategy !== "auto") out.outputStrategy = params.outputStrategy;
  if (structured || params.maxOutputRetries !== 2) out.maxOutputRetries = params.maxOutputRetries;
  if (structured || params.raiseOnInvalidOutput) out.raiseOnInvalidOutput = params.raiseOnInvalidOutput;
}

/**
 * Writes the Agent's options as JSON `init_parameters` and reads them back: the chat generator as a
 * nested component, tools by their own serialization, the state schema and the output schema as JSON
 * Schema (handlers by registered name), hooks and the streaming callback by registered name. A loaded
 * `outputSchema` stays JSON Schema (read into zod by the Agent), so writing it again gives the same document.
 */
export const agentSerializer: ComponentSerializer<AgentParams> = {
  toInitParameters(params, context) {
    // The state schema and the tools throw their problems; collect them and go on, so one toJSON()
    // reports every value that cannot be written (hooks and callbacks too).
    const problems: Issue[] = [];
    const collect = <T>(write: () => T): T | undefined => {
      try {
        return write();
      } catch (error) {
        if (!SerializationError.isInstance(error) || error.issues.length === 0) throw error;
        problems.push(...error.issues);
        return undefined;
      }
    };
    const out: Record<string, unknown> = {
      chatGenerator: context.serializeComponent(params.chatGenerator, "chatGenerator"),
      exitConditions: [...params.exitConditions],
      maxAgentSteps: params.maxAgentSteps,
      raiseOnToolInvocationFailure: params.raiseOnToolInvocationFailure,
      finalAnswerOnMaxSteps: params.finalAnswerOnMaxSteps,
      stateSchema: collect(() => stateSchemaToJSON(params.stateSchema, context)),
    };
    if (params.tools !== undefined) out.tools = collect(() => toolsToJSON(params.tools!, context));
    if (params.systemPrompt !== undefined) out.systemPrompt = params.systemPrompt;
    if (params.userPrompt !== undefined) out.userPrompt = params.userPrompt;
    if (params.toolConcurrencyLimit !== undefined) out.toolConcurrencyLimit = params.toolConcurrencyLimit;
    if (params.streamingCallback !== undefined) {
      out.streamingCallback = context.functionName(params.streamingCallback, "streamingCallback");
    }
    if (params.hooks !== undefined) out.hooks = hooksToJSON(params.hooks, context);
    writeOutputOptions(params, out, context);
    if (params.conversation !== undefined)
      out.conversation = conversationToJSON(params.conversation, context);
    if (params.historyLimit !== undefined)
      out.historyLimit = historyLimitToJSON(params.historyLimit, context);
    if (problems.length > 0) {
      throw new SerializationError(`Agent: ${problems.length} value(s) cannot be written.`, {
        issues: problems,
      });
    }
    return out;
  },
  fromInitParameters(init, context) {
    const out: Record<string, unknown> = { ...init };
    if (init.chatGenerator !== undefined) {
      out.chatGenerator = context.deserializeComponent(init.chatGenerator, "chatGenerator");
    }
    if (init.tools !== undefined) out.tools = toolsFromJSON(init.tools, context);
    if (init.stateSchema !== undefined) out.stateSchema = stateSchemaFromJSON(init.stateSchema, context);
    if (init.streamingCallback !== undefined) {
      out.streamingCallback = context.resolveFunction(init.streamingCallback, "streamingCallback");
    }
    if (init.hooks !== undefined) out.hooks = hooksFromJSON(init.hooks, context);
    if (init.conversation !== undefined) out.conversation = conversationFromJSON(init.conversation, context);
    if (init.historyLimit !== undefined) out.historyLimit = historyLimitFromJSON(init.historyLimit, context);
    return out;
  },
};
