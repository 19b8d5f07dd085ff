/**
 * The OpenAPI paths of the run routes (present when the server has a store). Interrupts and decisions
 * are described by the run snapshot's JSON Schema (`schema/run-snapshot.schema.json`); here they are
 * summarized.
 */

const interruptSchema = {
  type: "object",
  description: "A pending interrupt (see docs/interrupts.md): decide on it by its id.",
  properties: {
    id: { type: "string" },
    kind: { enum: ["tool_approval", "component"] },
    path: { type: "array", items: { type: "string" } },
    tool: { type: "string" },
    callId: { type: "string" },
    arguments: { type: "object" },
    argsHash: { type: "string" },
    payload: {},
    by: { type: "string" },
  },
  required: ["id", "kind", "path"],
};

const decisionSchema = {
  type: "object",
  description:
    'approve (scope "once" | "run"), edit (arguments), reject (message, scope) or respond (value); argsHash binds it to the arguments shown.',
  properties: {
    action: { enum: ["approve", "edit", "reject", "respond"] },
    scope: { enum: ["once", "run"] },
    arguments: { type: "object" },
    message: { type: "string" },
    value: {},
    argsHash: { type: "string" },
    by: { type: "string" },
    at: { type: "string" },
  },
  required: ["action"],
};

const runEntry = {
  type: "object",
  properties: {
    run_id: { type: "string" },
    pipeline: { type: ["string", "null"] },
    status: { enum: ["running", "interrupted", "completed", "failed"] },
    updated_at: { type: "string" },
    seq: { type: "integer" },
    interrupts: { type: "array", items: { $ref: "#/components/schemas/Interrupt" } },
  },
  required: ["run_id", "pipeline", "status", "updated_at", "seq", "interrupts"],
};

/** The answer of a run that stopped at interrupts (`/run` and `/resume` answer it with 202). */
export const interruptedSchema = {
  type: "object",
  properties: {
    status: { const: "interrupted" },
    run_id: { type: "string" },
    pipeline: { type: ["string", "null"] },
    interrupts: { type: "array", items: { $ref: "#/components/schemas/Interrupt" } },
  },
  required: ["status", "run_id", "pipeline", "interrupts"],
};

function json(schema: unknown) {
  return { "application/json": { schema } };
}

const error = { $ref: "#/components/responses/Error" };

/** Schemas the run routes refer to. */
export const runSchemas = {
  Interrupt: interruptSchema,
  Decision: decisionSchema,
  Interrupted: interruptedSchema,
};

/** The run routes' paths. */
export function runPaths(): Record<string, unknown> {
  const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
  return {
    "/runs": {
      get: {
        tags: ["runs"],
        summary: "Stored runs, most recent first (status=interrupted: the approval inbox)",
        parameters: [
          {
            name: "status",
            in: "query",
            schema: { enum: ["running", "interrupted", "completed", "failed"] },
          },
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 1000 } },
        ],
        responses: {
          "200": {
            description: "The runs",
            content: json({ type: "object", properties: { runs: { type: "array", items: runEntry } } }),
          },
          "400": error,
        },
      },
    },
    "/runs/{id}": {
      get: {
        tags: ["runs"],
        summary: "One run: status, pending interrupts, decisions, outputs and history",
        parameters: [id],
        responses: {
          "200": { description: "The run", content: json(runEntry) },
          "404": error,
        },
      },
    },
    "/runs/{id}/resume": {
      post: {
        tags: ["runs"],
        summary:
          "Resume an interrupted run with a decision for every pending interrupt (JSON, or SSE with Accept: text/event-stream)",
        parameters: [id],
        requestBody: {
          required: true,
          content: json({
            type: "object",
            properties: {
              decisions: {
                type: "object",
                additionalProperties: { $ref: "#/components/schemas/Decision" },
              },
            },
            required: ["decisions"],
            additionalProperties: false,
          }),
        },
        responses: {
          "200": {
            description:
              "The run finished; with `Accept: text/event-stream`, the resumed run's events as SSE (the events of /pipelines/{name}/stream; a client that leaves stops receiving, the run goes on)",
            content: {
              ...json({
                type: "object",
                properties: {
                  status: { const: "completed" },
                  run_id: { type: "string" },
                  pipeline: { type: "string" },
                  outputs: { type: "object" },
                },
                required: ["status", "run_id", "pipeline", "outputs"],
              }),
              "text/event-stream": { schema: { type: "string" } },
            },
          },
          "202": {
            description: "The run stopped at interrupts again",
            content: json({ $ref: "#/components/schemas/Interrupted" }),
          },
          "400": error,
          "404": error,
          "409": error,
          "500": error,
        },
      },
    },
  };
}
