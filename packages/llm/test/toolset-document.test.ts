import { createRegistry } from "@junction/core";
import { type AnyTool, Toolset, tool, toolsetFromJSON, toolsFromJSON, toolsToJSON } from "@junction/llm";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const ping = tool({ name: "ping", description: "pong", parameters: z.object({}), function: () => "pong" });

/** A toolset subclass that saves itself as its own document type (as MCPToolset does). */
class RemoteToolset extends Toolset {
  constructor(readonly url: string) {
    super((): AnyTool[] => [ping]);
  }
  override toDocument() {
    return { type: "test.RemoteToolset", data: { url: this.url } };
  }
}

describe("toolset subclasses with their own document type", () => {
  const registry = createRegistry().registerFunction(
    "test.RemoteToolset",
    (data: { url: string }) => new RemoteToolset(data.url),
  );

  it("are written by toDocument and read by the function registered under their type", () => {
    const doc = toolsToJSON([new RemoteToolset("http://127.0.0.1:1")], { registry });
    expect(doc).toEqual([{ type: "test.RemoteToolset", data: { url: "http://127.0.0.1:1" } }]);
    const single = toolsetFromJSON((doc as unknown[])[0], { registry });
    expect(single).toBeInstanceOf(RemoteToolset);
    expect((single as RemoteToolset).url).toBe("http://127.0.0.1:1");
    expect(toolsFromJSON({ type: "test.RemoteToolset", data: { url: "x" } }, { registry })).toBeInstanceOf(
      RemoteToolset,
    );
  });

  it("are refused with the path when their type is not registered", () => {
    expect(() =>
      toolsFromJSON([{ type: "test.RemoteToolset", data: {} }], { registry: createRegistry() }),
    ).toThrow(/\[0\]/);
  });
});
