import { defaultRegistry, type Registry } from "../component/registry.js";
import {
  DeserializationError,
  formatIssues,
  type Issue,
  SerializationError,
  zodIssues,
} from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { didYouMean } from "../errors/suggest.js";
import { copyUntrusted } from "../json/untrusted-json.js";
import { readComponent, writeComponent } from "../serialization/component-serialization.js";
import {
  connectionDocumentSchema,
  documentVersion,
  isDocumentComponentName,
  type PipelineDocument,
  pipelineDocumentSchema,
} from "../serialization/document-schema.js";
import { toJSONData } from "../serialization/json-data.js";
import { checkDeclaredIO, type DeclaredIO } from "./declared-io.js";
import type { Pipeline } from "./pipeline.js";

/** Options of `Pipeline.toJSON` / `toYAML`. */
export interface PipelineSerializeOptions {
  /** Where registered function names are looked up (default: the default registry). */
  readonly registry?: Registry | undefined;
}

/** Options of `Pipeline.fromJSON` / `fromYAML`. */
export interface PipelineDeserializeOptions {
  /** The only place component types and function names are resolved (default: the default registry). */
  readonly registry?: Registry | undefined;
}

/** How the loader creates the pipeline (passed by `Pipeline` itself, which avoids an import cycle). */
export type CreatePipeline = (options: {
  maxRunsPerComponent: number;
  metadata: Record<string, unknown>;
  connectionTypeValidation: boolean;
}) => Pipeline;

/** The most issues the error message spells out; `error.issues` always holds every one. */
const maxListedIssues = 50;

/** Quotes up to 20 names, so messages stay small whatever the document holds. */
function listSome(names: ReadonlySet<string>): string {
  if (names.size === 0) return "none";
  const shown: string[] = [];
  for (const name of names) {
    if (shown.length === 20) break;
    shown.push(`"${excerpt(name)}"`);
  }
  return names.size > 20 ? `${shown.join(", ")} and ${names.size - 20} more` : shown.join(", ");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Sets a key without ever invoking a setter (a component may be named "__proto__" in code). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Writes a pipeline as a version-1 document (DESIGN §4).
 *
 * @throws SerializationError listing every value that cannot be written, with its path
 */
export function pipelineToDocument(
  pipeline: Pipeline,
  options: PipelineSerializeOptions = {},
  where = "Pipeline.toJSON",
): PipelineDocument {
  const registry = options.registry ?? defaultRegistry;
  const issues: Issue[] = [];
  const metadata = toJSONData(pipeline.metadata, ["metadata"], issues) as Record<string, unknown>;
  const components: Record<string, PipelineDocument["components"][string]> = {};
  for (const name of pipeline.componentNames()) {
    if (!isDocumentComponentName(name) || name === "__proto__") {
      issues.push({
        path: ["components", name],
        message: "this component name cannot be written to a document.",
      });
      continue;
    }
    const doc = writeComponent(pipeline.getComponent(name), registry, ["components", name], issues);
    if (doc !== undefined) setOwn(components, name, doc);
  }
  if (issues.length > 0) {
    throw new SerializationError(
      `${where}: cannot serialize the pipeline (${plural(issues.length, "problem")}):\n${formatIssues(issues)}`,
      { issues },
    );
  }
  const io = pipeline.declaredIO();
  return {
    version: documentVersion,
    metadata,
    max_runs_per_component: pipeline.maxRunsPerComponent,
    connection_type_validation: pipeline.connectionTypeValidation,
    components,
    connections: pipeline.connections().map(({ sender, receiver }) => ({ sender, receiver })),
    ...(io?.inputs !== undefined ? { inputs: ioToDocument(io.inputs) } : {}),
    ...(io?.outputs !== undefined ? { outputs: ioToDocument(io.outputs) } : {}),
  };
}

function ioToDocument(map: NonNullable<DeclaredIO["inputs"]>): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, targets] of Object.entries(map))
    setOwn(result, name, typeof targets === "string" ? targets : [...targets]);
  return result;
}

function field<T>(
  schema: { safeParse(value: unknown): { success: boolean; data?: T } },
  value: unknown,
  fallback: T,
): T {
  const result = schema.safeParse(value);
  return result.success ? (result.data as T) : fallback;
}

function unique(issues: readonly Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path.join("\u0000")}\u0001${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Loads a pipeline document, validating everything and reporting every problem at once: the document's
 * shape and version, unknown component types, invalid params, and every connection (each is made with
 * `Pipeline.connect`, so the same checks as in code apply).
 *
 * @throws DeserializationError whose `issues` list every problem with its path
 */
export function pipelineFromDocument(
  input: unknown,
  create: CreatePipeline,
  options: PipelineDeserializeOptions = {},
  where = "Pipeline.fromJSON",
): Pipeline {
  const registry = options.registry ?? defaultRegistry;
  const issues: Issue[] = [];
  const fail = (): never => {
    const all = unique(issues);
    throw new DeserializationError(
      `${where}: cannot load the document (${plural(all.length, "problem")}):\n${formatIssues(all.slice(0, maxListedIssues))}${
        all.length > maxListedIssues
          ? `\n  ... and ${all.length - maxListedIssues} more (see error.issues)`
          : ""
      }`,
      { issues: all },
    );
  };
  const doc = copyUntrusted(input, [], issues);
  if (!isRecord(doc)) {
    if (doc === undefined && issues.length > 0) return fail(); // refused while copying
    issues.push({ path: [], message: "a pipeline document must be a JSON object." });
    return fail();
  }
  const parsed = pipelineDocumentSchema.safeParse(doc);
  if (!parsed.success) issues.push(...zodIssues(parsed.error));
  const shape = pipelineDocumentSchema.shape;
  const pipeline = create({
    maxRunsPerComponent: field(shape.max_runs_per_component, doc.max_runs_per_component, 100),
    metadata: field(shape.metadata, doc.metadata, {}),
    connectionTypeValidation: field(shape.connection_type_validation, doc.connection_type_validation, true),
  });

  const loaded = new Set<string>();
  const declared = isRecord(doc.components) ? doc.components : {};
  for (const [name, entry] of Object.entries(declared)) {
    if (!isDocumentComponentName(name)) continue; // reported by the schema
    const component = readComponent(entry, registry, ["components", name], issues);
    if (component === undefined) continue;
    try {
      pipeline.addComponent(name, component);
      loaded.add(name);
    } catch (error) {
      issues.push({ path: ["components", name], message: messageOf(error) });
    }
  }

  const connections = Array.isArray(doc.connections) ? doc.connections : [];
  connections.forEach((connection, index) => {
    if (!connectionDocumentSchema.safeParse(connection).success) return; // reported by the schema
    const { sender, receiver } = connection as { sender: string; receiver: string };
    const ends = [
      checkEnd(
        pipeline,
        registry,
        loaded,
        declared,
        sender,
        "output",
        ["connections", index, "sender"],
        issues,
      ),
      checkEnd(
        pipeline,
        registry,
        loaded,
        declared,
        receiver,
        "input",
        ["connections", index, "receiver"],
        issues,
      ),
    ];
    if (!ends.every(Boolean)) return;
    try {
      pipeline.connect(sender, receiver);
    } catch (error) {
      issues.push({ path: ["connections", index], message: messageOf(error) });
    }
  });
  if (issues.length > 0) return fail();
  const io: DeclaredIO = {
    ...(doc.inputs !== undefined ? { inputs: doc.inputs as NonNullable<DeclaredIO["inputs"]> } : {}),
    ...(doc.outputs !== undefined ? { outputs: doc.outputs as NonNullable<DeclaredIO["outputs"]> } : {}),
  };
  if (io.inputs !== undefined || io.outputs !== undefined) {
    issues.push(...checkDeclaredIO(pipeline, io));
    if (issues.length > 0) return fail();
    pipeline.declareIO(io);
  }
  return pipeline;
}

/**
 * Checks one end of a connection before connecting: the component must be in the document and loaded,
 * the socket (when named) must exist. A component that failed to load was reported already, so its
 * connections are skipped silently.
 */
function checkEnd(
  pipeline: Pipeline,
  registry: Registry,
  loaded: ReadonlySet<string>,
  declared: Record<string, unknown>,
  address: string,
  direction: "input" | "output",
  path: (string | number)[],
  issues: Issue[],
): boolean {
  const dot = address.indexOf(".");
  const name = dot === -1 ? address : address.slice(0, dot);
  const socket = dot === -1 ? undefined : address.slice(dot + 1);
  if (!loaded.has(name)) {
    if (!Object.hasOwn(declared, name)) {
      const names = listSome(loaded);
      issues.push({
        path,
        message: `unknown component "${excerpt(name)}".${didYouMean(name, Object.keys(declared))} Components: ${names}. Use "component.socket" with a component from "components".`,
      });
    } else if (socket !== undefined) {
      // The component failed to load (reported already); its connections are still checked against
      // the sockets its type declares, when they do not depend on params.
      const declaredSockets = staticSockets(declared[name], registry, direction);
      if (declaredSockets !== undefined && !declaredSockets.includes(socket)) {
        issues.push({
          path,
          message: `"${excerpt(name)}" has no ${direction} socket "${excerpt(socket)}".${didYouMean(socket, declaredSockets)} Its ${direction} sockets: ${declaredSockets.map((known) => `"${excerpt(known)}"`).join(", ") || "none"}.`,
        });
      }
    }
    return false;
  }
  if (socket === undefined) return true;
  const component = pipeline.getComponent(name);
  const sockets = direction === "output" ? component.outputSockets : component.inputSockets;
  if (Object.hasOwn(sockets, socket)) return true;
  const available =
    Object.keys(sockets)
      .map((known) => `"${excerpt(known)}"`)
      .join(", ") || "none";
  issues.push({
    path,
    message: `"${excerpt(name)}" (${component.type}) has no ${direction} socket "${excerpt(socket)}". Its ${direction} sockets: ${available}.`,
  });
  return false;
}

/** The socket names a component document's type declares, when they do not depend on its params. */
function staticSockets(
  entry: unknown,
  registry: Registry,
  direction: "input" | "output",
): string[] | undefined {
  if (!isRecord(entry) || typeof entry.type !== "string") return undefined;
  const definition = registry.getComponentClass(entry.type)?.definition;
  const sockets = direction === "input" ? definition?.inputs : definition?.outputs;
  return typeof sockets === "object" && sockets !== null ? Object.keys(sockets) : undefined;
}
