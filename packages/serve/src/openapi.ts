import type { AppContext } from "./create-app.js";
import { interruptedSchema, runPaths, runSchemas } from "./runs-openapi.js";

/**
 * The OpenAPI 3.1 document of the server, built once at start from the pipelines' request and
 * response JSON Schemas (OpenAPI 3.1 uses JSON Schema 2020-12, so they are embedded as they are).
 */

const errorSchema = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        type: { type: "string", description: "The error class or kind." },
        code: { type: "string" },
        message: { type: "string" },
        issues: {
          type: "array",
          items: {
            type: "object",
            properties: {
              path: { type: "array", items: { type: ["string", "number"] } },
              message: { type: "string" },
            },
          },
        },
        component: { type: "string" },
      },
      required: ["type", "message"],
    },
  },
  required: ["error"],
};

const errorResponses = {
  "400": {
    description: "Bad JSON or invalid inputs (with every issue)",
    $ref: "#/components/responses/Error",
  },
  "401": { description: "Missing or wrong bearer token", $ref: "#/components/responses/Error" },
  "403": { description: "Host or Origin not allowed", $ref: "#/components/responses/Error" },
  "404": { description: "Unknown pipeline", $ref: "#/components/responses/Error" },
  "413": { description: "Body too large", $ref: "#/components/responses/Error" },
  "500": { description: "The run failed (error class and message)", $ref: "#/components/responses/Error" },
};

function refs(responses: Record<string, { $ref: string }>): Record<string, { $ref: string }> {
  return Object.fromEntries(Object.entries(responses).map(([status, { $ref }]) => [status, { $ref }]));
}

function json(schema: unknown) {
  return { "application/json": { schema } };
}

/** Builds the OpenAPI document. */
export function openAPIDocument(
  context: AppContext,
  features: { readonly openai: boolean; readonly mcp: boolean },
): Record<string, unknown> {
  const paths: Record<string, unknown> = {
    "/health": {
      get: {
        summary: "Liveness",
        responses: { "200": { description: "OK", content: json({ type: "object" }) } },
      },
    },
    "/info": {
      get: {
        summary: "Server name, version, pipelines and features",
        responses: { "200": { description: "OK", content: json({ type: "object" }) } },
      },
    },
    "/pipelines": {
      get: {
        summary: "The served pipelines",
        responses: { "200": { description: "OK", content: json({ type: "object" }) } },
      },
    },
  };
  for (const pipeline of context.pipelines.values()) {
    const base = `/pipelines/${pipeline.name}`;
    const tag = [pipeline.name];
    paths[base] = {
      get: {
        tags: tag,
        summary: `Describe "${pipeline.name}": document, schemas, mermaid`,
        responses: {
          "200": { description: "OK", content: json({ type: "object" }) },
          ...refs(errorResponses),
        },
      },
    };
    paths[`${base}/run`] = {
      post: {
        tags: tag,
        operationId: `run_${pipeline.name.replace(/[^A-Za-z0-9_]/g, "_")}`,
        summary: pipeline.description,
        requestBody: { required: true, content: json(pipeline.io.inputSchema) },
        responses: {
          "200": {
            description: "The run's outputs and the components that never ran",
            content: json({
              type: "object",
              properties: {
                outputs: pipeline.io.outputSchema,
                never_ran: {
                  type: "array",
                  items: {
                    type: "object",
                    properties: { component: { type: "string" }, reason: { type: "string" } },
                  },
                },
              },
              required: ["outputs", "never_ran"],
            }),
          },
          ...(context.store === undefined
            ? {}
            : {
                "202": {
                  description:
                    "The run stopped at interrupts and waits for decisions (POST /runs/{id}/resume)",
                  content: json(interruptedSchema),
                },
              }),
          ...refs(errorResponses),
        },
      },
    };
    paths[`${base}/stream`] = {
      post: {
        tags: tag,
        summary: `Run "${pipeline.name}" and stream its events (SSE: component_start, component_end, chunk, interrupt, run_end, error)`,
        requestBody: { required: true, content: json(pipeline.io.inputSchema) },
        responses: {
          "200": {
            description: "Server-sent events",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          ...refs(errorResponses),
        },
      },
    };
  }
  if (context.store !== undefined) Object.assign(paths, runPaths());
  if (features.openai) {
    paths["/v1/models"] = {
      get: {
        tags: ["openai"],
        summary: "Chat-capable pipelines as models",
        responses: { "200": { description: "OK", content: json({ type: "object" }) } },
      },
    };
    paths["/v1/chat/completions"] = {
      post: {
        tags: ["openai"],
        summary: "OpenAI-compatible chat completions (model = pipeline name; stream: true for chunks)",
        requestBody: { required: true, content: json({ type: "object", required: ["model", "messages"] }) },
        responses: {
          "200": {
            description: "A chat.completion, or chat.completion.chunk events",
            content: json({ type: "object" }),
          },
          ...refs(errorResponses),
        },
      },
    };
  }
  if (features.mcp) {
    paths["/mcp"] = {
      post: {
        tags: ["mcp"],
        summary: "MCP (stateless Streamable HTTP): every pipeline is a tool",
        requestBody: { required: true, content: json({ type: "object" }) },
        responses: { "200": { description: "JSON-RPC response", content: json({ type: "object" }) } },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: context.info.name, version: context.info.version },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    paths,
    components: {
      schemas: { Error: errorSchema, ...(context.store === undefined ? {} : runSchemas) },
      responses: {
        Error: { description: "An error", content: json({ $ref: "#/components/schemas/Error" }) },
      },
      ...(context.authenticated ? { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } } : {}),
    },
    ...(context.authenticated ? { security: [{ bearer: [] }] } : {}),
  };
}
