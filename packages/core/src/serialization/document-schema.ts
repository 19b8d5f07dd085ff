import { z } from "zod";

/**
 * The zod schema of the pipeline document. The loader validates with it, and `scripts/write-schema.ts`
 * turns it into the published JSON Schema (`docs/schema/pipeline.schema.json`), so the two cannot drift.
 */

/** The document format version this package writes and reads. */
export const documentVersion = 1;

const componentNameSchema = z
  .string()
  .min(1, "component names must not be empty.")
  .regex(/^[^.]+$/, 'component names must not contain "." (it separates component and socket).')
  .describe("A component name: unique in the pipeline, without dots.");

/** The schema of one component entry: `{ type, init_parameters }`. */
export const componentDocumentSchema = z
  .strictObject({
    type: z
      .string()
      .min(1, "the component type must be a non-empty string.")
      .describe(
        'The registered component type, e.g. "example.AddFixedValue". Resolved only through a registry.',
      ),
    init_parameters: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "The component's params as JSON (secrets as env-var references, functions as registered names). Validated by the component's own params schema.",
      ),
  })
  .describe("One component: its registered type and its init parameters.");

const socketAddressSchema = z
  .string()
  .min(1, 'a socket address must be "component" or "component.socket".')
  .describe('"component.socket" (written fully qualified), or "component" when only one socket pair fits.');

const ioNameSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    "names in inputs/outputs must be identifiers (letters, digits and _, not starting with a digit).",
  )
  .refine((name) => name !== "__proto__", "this name is reserved.")
  .describe('A friendly name callers use, e.g. "question".');

const ioAddressSchema = z
  .string()
  .regex(/^[^.]+\.[^.]+$/, 'must be a fully qualified socket address, "component.socket".')
  .describe('"component.socket"');

const ioTargetsSchema = z
  .union([ioAddressSchema, z.array(ioAddressSchema).min(1, "a list of sockets must not be empty.")])
  .describe('"component.socket", or a list of them.');

/**
 * The schema of the optional `inputs` map: friendly name → the input socket(s) its value goes to.
 * A list gives the same value to every socket in it.
 */
export const declaredInputsSchema = z
  .record(ioNameSchema, ioTargetsSchema)
  .describe(
    'The pipeline\'s declared inputs: friendly name → "component.socket" (or a list: the value goes to each). Callers (HTTP, MCP, the CLI) then give { name: value }. Every mandatory open input socket must be listed.',
  );

/**
 * The schema of the optional `outputs` map: friendly name → the output socket it reports. A list
 * reports the first of those sockets that produced a value (for routed pipelines).
 */
export const declaredOutputsSchema = z
  .record(ioNameSchema, ioTargetsSchema)
  .describe(
    'The pipeline\'s declared outputs: friendly name → "component.socket" (or a list: the first that produced a value). Sockets that feed other components are reported too.',
  );

/** The schema of one connection. */
export const connectionDocumentSchema = z
  .strictObject({ sender: socketAddressSchema, receiver: socketAddressSchema })
  .describe("One connection from an output socket to an input socket.");

/**
 * The schema of a pipeline document (version 1). Unknown keys are refused everywhere except inside
 * `metadata` and `init_parameters`.
 */
export const pipelineDocumentSchema = z
  .strictObject({
    version: z
      .literal(documentVersion, {
        error: `unsupported or missing version: this Junction reads documents with "version": ${documentVersion}.`,
      })
      .describe("The document format version."),
    metadata: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Free-form JSON metadata kept with the pipeline."),
    max_runs_per_component: z
      .number()
      .int()
      .min(1)
      .default(100)
      .describe("How often one component may run in one run."),
    connection_type_validation: z
      .boolean()
      .default(true)
      .describe("Whether connections are checked for compatible socket types."),
    components: z
      .record(componentNameSchema, componentDocumentSchema)
      .default({})
      .describe("The components by name."),
    connections: z
      .array(connectionDocumentSchema)
      .default([])
      .describe("The connections, in the order they are made."),
    inputs: declaredInputsSchema.optional(),
    outputs: declaredOutputsSchema.optional(),
  })
  .meta({
    title: "Junction pipeline document",
    description:
      "A Junction pipeline written by Pipeline.toJSON() / toYAML() and read by Pipeline.fromJSON() / fromYAML().",
  });

/** A component entry of a pipeline document. */
export type ComponentEntryDocument = z.output<typeof componentDocumentSchema>;

/** A pipeline document, as written by `Pipeline.toJSON()` (the shape of DESIGN §4). */
export interface PipelineDocument {
  /** The format version (always `1`). */
  readonly version: 1;
  /** Free-form JSON metadata. */
  readonly metadata: Record<string, unknown>;
  /** How often one component may run in one run. */
  readonly max_runs_per_component: number;
  /** Whether connections are type-checked. */
  readonly connection_type_validation: boolean;
  /** The components by name. */
  readonly components: Record<
    string,
    { readonly type: string; readonly init_parameters: Record<string, unknown> }
  >;
  /** The connections, fully qualified, in connect order. */
  readonly connections: { readonly sender: string; readonly receiver: string }[];
  /** Declared inputs (friendly name → socket addresses), only when the pipeline declares them. */
  readonly inputs?: Record<string, string | string[]>;
  /** Declared outputs (friendly name → socket addresses), only when the pipeline declares them. */
  readonly outputs?: Record<string, string | string[]>;
}

/** True when `name` is a valid component name in a document. */
export function isDocumentComponentName(name: string): boolean {
  return componentNameSchema.safeParse(name).success;
}

/**
 * The JSON Schema (draft 2020-12) of the pipeline document, generated from the same zod schema the loader
 * validates with. `docs/schema/pipeline.schema.json` is this value; point editors at it for completion.
 *
 * It describes the document's shape only: each component's `init_parameters` are checked by that
 * component's own params schema when loading.
 */
export function pipelineDocumentJSONSchema(): Record<string, unknown> {
  return z.toJSONSchema(pipelineDocumentSchema, { io: "input", target: "draft-2020-12" }) as Record<
    string,
    unknown
  >;
}
