import type { AnyComponent, InputSocket } from "@junction/core";
import { isComponent, SuperComponent } from "@junction/core";
import { z } from "zod";
import { ChatMessage } from "../messages/chat-message.js";
import { StreamingChunk } from "../streaming/streaming-chunk.js";
import { tagToolChunk } from "../streaming/tool-chunk.js";
import { decodeNamedValue } from "./named-type-codecs.js";
import { Tool } from "./tool.js";
import type { OutputsToString, OutputToState } from "./tool-config.js";
import { ToolDefinitionError } from "./tool-errors.js";
import type { JsonObjectSchema } from "./tool-parameters.js";

/** What the {@link ComponentTool} constructor takes. */
export interface ComponentToolInit {
  /** The component to expose. */
  readonly component: AnyComponent;
  /** The tool name (default: the snake_case of the component type's last segment, e.g. `add_fixed_value`). */
  readonly name?: string | undefined;
  /** The description (default: the component's description, else its name). */
  readonly description?: string | undefined;
  /** An explicit parameters JSON Schema, replacing the one derived from the input sockets. */
  readonly parameters?: JsonObjectSchema | undefined;
  /** `{ stateKey: socketName }`: fills an input socket from State. */
  readonly inputsFromState?: Readonly<Record<string, string>> | undefined;
  /** `{ stateKey: { source?: outputSocket, handler? } }`. */
  readonly outputsToState?: Readonly<Record<string, OutputToState>> | undefined;
  /** How the component's outputs become the tool message. */
  readonly outputsToString?: OutputsToString | undefined;
}

/** What subclasses of {@link ComponentTool} may adjust. */
export interface ComponentToolOptions {
  /** The description of an input parameter whose schema has none (default: `Input 'x' for the component.`). */
  readonly describeInput?: ((socketName: string) => string | undefined) | undefined;
}

/** Converts `example.AddFixedValue` to `add_fixed_value`. */
function defaultName(type: string): string {
  const last = type.split(".").pop() ?? type;
  return last
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^a-zA-Z0-9_-]/g, "_")
    .toLowerCase();
}

function socketSchema(socket: InputSocket): z.ZodType {
  if (socket.variadic === "none") return socket.schema;
  const list = z.array(socket.schema);
  return socket.mandatory ? list : list.optional();
}

/**
 * Any component as a tool. The parameters schema is derived from the component's input sockets
 * (mandatory sockets are required; named types with a JSON form such as `ChatMessage` are described
 * and converted; sockets filled from State may have any type), and the tool's result is the
 * component's outputs object.
 *
 * @example
 * ```ts
 * const adderTool = new ComponentTool({ component: new AddFixedValue({ add: 2 }), description: "Adds 2" });
 * await adderTool.invoke({ value: 1 }); // { result: 3 }
 * ```
 */
export class ComponentTool extends Tool<Record<string, unknown>, Record<string, unknown>> {
  /** The wrapped component. */
  readonly component: AnyComponent;
  /** The explicit parameters given at construction (`undefined` when derived from the sockets). */
  readonly explicitParameters: JsonObjectSchema | undefined;

  /**
   * @param init - the component and optional name, description, parameters and mappings
   * @param options - for subclasses: how parameters without a description are described
   * @throws ToolDefinitionError when `component` is not a component, or a socket cannot be described
   */
  constructor(init: ComponentToolInit, options: ComponentToolOptions = {}) {
    const component = init?.component;
    if (!isComponent(component)) {
      throw new ToolDefinitionError(
        "new ComponentTool: `component` must be a component instance (made by a defineComponent class).",
      );
    }
    const sockets = Object.values(component.inputSockets as Record<string, InputSocket>);
    const shape: Record<string, z.ZodType> = {};
    const descriptions: Record<string, string> = {};
    for (const socket of sockets) {
      shape[socket.name] = socketSchema(socket);
      descriptions[socket.name] =
        options.describeInput?.(socket.name) ?? `Input '${socket.name}' for the component.`;
    }
    const name = init.name ?? defaultName(component.type);
    super(
      {
        name,
        description: init.description ?? component.description ?? name,
        parameters: init.parameters ?? z.object(shape),
        function: async (args, context) => {
          const inputs: Record<string, unknown> = {};
          for (const socket of sockets) {
            const value = args[socket.name];
            if (value !== undefined) inputs[socket.name] = decodeNamedValue(shape[socket.name]!, value);
          }
          const toolCall = context.toolCall;
          // Token usage the component spent: its own replies, or those of a wrapped pipeline's components.
          const spent: Record<string, unknown>[] = [];
          const outputs = await component.run(inputs, {
            signal: context.signal,
            tracer: context.tracer,
            span: context.span,
            logger: context.logger,
            depth: context.depth,
            onEmit: (payload) =>
              payload instanceof StreamingChunk
                ? context.emit(tagToolChunk(payload, toolCall, name))
                : undefined,
            onNestedEvent: (event) => {
              // A nested SuperComponent's own end repeats what its inner components reported.
              if (event.type === "component_end" && event.componentType !== SuperComponent.type)
                spent.push(...usageIn(event.outputs));
            },
          });
          if (!(component instanceof SuperComponent)) spent.push(...usageIn(outputs));
          for (const usage of spent) context.reportUsage(usage);
          return { ...outputs };
        },
        inputsFromState: init.inputsFromState,
        outputsToState: init.outputsToState,
        outputsToString: init.outputsToString,
      },
      { validOutputs: Object.keys(component.outputSockets), defaultDescriptions: descriptions },
    );
    this.component = component;
    this.explicitParameters = init.parameters;
  }

  /** Warms up the component (once). */
  override warmUp(): Promise<void> {
    return this.component.warmUp();
  }
}

function isUsage(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0
  );
}

/** The token usage in a component's outputs: each reply's `meta.usage`, and an Agent's `token_usage`. */
function usageIn(outputs: Readonly<Record<string, unknown>>): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const replies = outputs.replies;
  if (Array.isArray(replies)) {
    for (const reply of replies) {
      if (reply instanceof ChatMessage && isUsage(reply.meta.usage)) found.push(reply.meta.usage);
    }
  }
  if (isUsage(outputs.token_usage)) found.push(outputs.token_usage);
  return found;
}
