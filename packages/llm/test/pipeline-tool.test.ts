import { defineComponent, Pipeline } from "@junction/core";
import { PipelineTool, StreamingChunk, toolFromJSON, toolResultToString, toolToJSON } from "@junction/llm";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const Retriever = defineComponent({
  type: "test.pt.Retriever",
  inputs: { query: z.string().describe("What to search for."), top_k: z.number().default(2) },
  outputs: { documents: z.array(z.string()) },
  run: async ({ query, top_k }, { emit }) => {
    await emit(new StreamingChunk({ content: `searching ${query}` }));
    return { documents: [`${query}-1`, `${query}-2`, `${query}-3`].slice(0, top_k) };
  },
});
const Count = defineComponent({
  type: "test.pt.Count",
  inputs: { documents: z.array(z.string()) },
  outputs: { count: z.number() },
  run: ({ documents }) => ({ count: documents.length }),
});

function retrieval(): Pipeline {
  return new Pipeline()
    .addComponent("retriever", new Retriever())
    .addComponent("count", new Count())
    .connect("retriever.documents", "count.documents");
}

describe("PipelineTool", () => {
  it("derives its parameters from the mapped inputs, with the sockets' descriptions", () => {
    const search = new PipelineTool({
      pipeline: retrieval(),
      name: "search",
      description: "Searches the docs",
      inputMapping: { query: ["retriever.query"], limit: ["retriever.top_k"] },
      outputMapping: { "retriever.documents": "documents", "count.count": "count" },
    });
    expect(search.spec.parameters).toMatchObject({
      properties: {
        query: { type: "string", description: "What to search for." },
        limit: { type: "number", description: "Input 'limit' of the pipeline (retriever.top_k)." },
      },
      required: ["query"],
    });
  });

  it("returns the mapped outputs (also of connected components) and streams tagged chunks", async () => {
    const search = new PipelineTool({
      pipeline: retrieval(),
      name: "search",
      description: "Searches the docs",
      inputMapping: { query: ["retriever.query"] },
      outputMapping: { "retriever.documents": "documents", "count.count": "count" },
      outputsToString: { source: "documents" },
    });
    const chunks: StreamingChunk[] = [];
    const result = await search.invoke(
      { query: "q" },
      { toolCall: { toolName: "search", arguments: {}, id: "c1" }, emit: (chunk) => void chunks.push(chunk) },
    );
    expect(result).toEqual({ documents: ["q-1", "q-2"], count: 2 });
    expect(toolResultToString(search, result)).toBe('["q-1","q-2"]');
    expect(chunks.map((chunk) => [chunk.content, chunk.meta.tool_call_id, chunk.meta.tool_name])).toEqual([
      ["searching q", "c1", "search"],
    ]);
  });

  it("refuses invalid mappings with a ToolDefinitionError naming the problem", () => {
    expect(
      () =>
        new PipelineTool({
          pipeline: retrieval(),
          name: "search",
          description: "x",
          inputMapping: { query: ["nowhere.query"] },
        }),
    ).toThrow(/"nowhere.query" names no component/);
  });

  it("round-trips through a tool document", async () => {
    const search = new PipelineTool({
      pipeline: retrieval(),
      name: "search",
      description: "Searches the docs",
      inputMapping: { query: ["retriever.query"] },
      outputMapping: { "count.count": "count" },
      inputsFromState: { topic: "query" },
    });
    const doc = toolToJSON(search);
    expect(doc).toMatchObject({
      type: "junction.PipelineTool",
      data: { input_mapping: { query: ["retriever.query"] }, output_mapping: { "count.count": "count" } },
    });
    const loaded = toolFromJSON(JSON.parse(JSON.stringify(doc)));
    expect(loaded).toBeInstanceOf(PipelineTool);
    expect(toolToJSON(loaded)).toEqual(doc);
    expect(await loaded.invoke({ query: "z" })).toEqual({ count: 2 });
  });

  it("reports an invalid embedded pipeline with its path", () => {
    const doc = toolToJSON(
      new PipelineTool({
        pipeline: retrieval(),
        name: "search",
        description: "x",
        inputMapping: { query: "retriever.query" },
      }),
    ) as unknown as { data: { pipeline: { components: Record<string, { type: string }> } } };
    doc.data.pipeline.components.retriever!.type = "test.pt.Unknown";
    expect(() => toolFromJSON(doc)).toThrow(/data\.pipeline\.components\.retriever\.type/);
  });
});
