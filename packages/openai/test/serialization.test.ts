import {
  createRegistry,
  deserializeComponent,
  JunctionError,
  Pipeline,
  Secret,
  SerializationError,
  serializeComponent,
} from "@junction/core";
import { ChatMessage, type StreamingChunk, Toolset, tool } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { completion, textStream } from "./support/fake-openai-server.js";
import { useHarness } from "./support/harness.js";

const h = useHarness();

function printChunk(_chunk: StreamingChunk): void {}
function weatherFunction({ city }: { city: string }): string {
  return `sunny in ${city}`;
}
const weather = tool({
  name: "weather",
  description: "the weather in a city",
  parameters: z.object({ city: z.string() }),
  function: weatherFunction,
});
const registry = createRegistry()
  .registerFunction("test.printChunk", printChunk)
  .registerFunction("test.weather", weatherFunction);

describe("serialization", () => {
  it("writes the defaults with the key as an env-var reference", () => {
    expect(serializeComponent(new OpenAIChatGenerator())).toEqual({
      type: "junction.OpenAIChatGenerator",
      init_parameters: {
        model: "gpt-5-mini",
        apiKey: { type: "env_var", env_vars: ["OPENAI_API_KEY"], strict: true },
        generationKwargs: {},
        toolsStrict: false,
      },
    });
  });

  it("round-trips every parameter, with the callback and tool functions by registered name", () => {
    const generator = new OpenAIChatGenerator({
      model: "gpt-4o-mini",
      apiKey: Secret.fromEnvVar("ENV_VAR", { strict: false }),
      baseURL: "http://localhost:11434/v1",
      organization: "org-1",
      generationKwargs: { max_completion_tokens: 10, temperature: 0.2 },
      tools: [weather],
      toolsStrict: true,
      streamingCallback: printChunk,
      timeout: 10_000,
      maxRetries: 2,
      responseFormat: z.object({ answer: z.string() }).meta({ title: "Answer" }),
    });
    const doc = serializeComponent(generator, { registry });
    expect(doc.init_parameters).toMatchObject({
      model: "gpt-4o-mini",
      apiKey: { type: "env_var", env_vars: ["ENV_VAR"], strict: false },
      baseURL: "http://localhost:11434/v1",
      streamingCallback: "test.printChunk",
      responseFormat: { type: "json_schema", json_schema: { name: "Answer", strict: true } },
    });
    expect(JSON.stringify(doc)).toContain("test.weather");
    const loaded = deserializeComponent(doc, { registry }) as InstanceType<typeof OpenAIChatGenerator>;
    expect(loaded.params.streamingCallback).toBe(printChunk);
    expect(loaded.params.apiKey.envVars).toEqual(["ENV_VAR"]);
    expect(serializeComponent(loaded, { registry })).toEqual(doc);
  });

  it("round-trips a toolset, keeping it a toolset", () => {
    const doc = serializeComponent(new OpenAIChatGenerator({ tools: new Toolset([weather]) }), { registry });
    const loaded = deserializeComponent(doc, { registry }) as InstanceType<typeof OpenAIChatGenerator>;
    expect(loaded.params.tools).toBeInstanceOf(Toolset);
    expect([...(loaded.params.tools as Toolset)].map((t) => t.name)).toEqual(["weather"]);
    expect(serializeComponent(loaded, { registry })).toEqual(doc);
  });

  it("refuses to write a literal key", () => {
    const generator = new OpenAIChatGenerator({ apiKey: Secret.fromToken("sk-literal-should-not-leak") });
    const error = (() => {
      try {
        serializeComponent(generator);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SerializationError);
    expect(String((error as Error).message)).not.toContain("sk-literal-should-not-leak");
  });

  it("refuses to write an unregistered streaming callback, saying how to register it", () => {
    const generator = new OpenAIChatGenerator({ streamingCallback: () => {} });
    expect(() => serializeComponent(generator)).toThrow(/registerFunction/);
  });

  it("loads a document without the key's variable set (the key is resolved at warm-up)", () => {
    vi.stubEnv("OPENAI_API_KEY", undefined);
    const loaded = deserializeComponent({
      type: "junction.OpenAIChatGenerator",
      init_parameters: {
        model: "gpt-4o",
        apiKey: { type: "env_var", env_vars: ["OPENAI_API_KEY"] },
        baseURL: null,
      },
    }) as InstanceType<typeof OpenAIChatGenerator>;
    expect(loaded.params.model).toBe("gpt-4o");
    expect(loaded.params.baseURL).toBeUndefined();
  });

  it("reports every problem of a bad document with its path", () => {
    let error: unknown;
    try {
      deserializeComponent(
        {
          type: "junction.OpenAIChatGenerator",
          init_parameters: { apiKey: "sk-literal", streamingCallback: "nope.unknown", maxRetries: -1 },
        },
        { registry },
      );
    } catch (caught) {
      error = caught;
    }
    const paths = JunctionError.isInstance(error) ? error.issues.map((issue) => issue.path.join(".")) : [];
    expect(paths).toEqual(
      expect.arrayContaining([
        "init_parameters.streamingCallback",
        "init_parameters.apiKey",
        "init_parameters.maxRetries",
      ]),
    );
    expect(String(error)).not.toContain("sk-literal");
  });
});

describe("in a pipeline", () => {
  it("runs, streams chunks as pipeline events and survives a JSON round trip", async () => {
    h.server.enqueue(textStream(["Bon", "jour"]), completion({ content: "again" }));
    const pipeline = new Pipeline().addComponent(
      "llm",
      new OpenAIChatGenerator({ baseURL: h.server.baseURL, generationKwargs: { stream: true } }),
    );
    const chunks: string[] = [];
    for await (const event of pipeline.stream({ llm: { messages: [ChatMessage.fromUser("Hello")] } })) {
      if (event.type === "chunk") chunks.push((event.chunk as StreamingChunk).content);
    }
    expect(chunks.join("")).toBe("Bonjour");
    const doc = pipeline.toJSON();
    const loaded = Pipeline.fromJSON(JSON.parse(JSON.stringify(doc)));
    expect(loaded.toJSON()).toEqual(doc);
    const out = (await loaded.run({
      llm: { messages: [ChatMessage.fromUser("Hello")], generation_kwargs: { stream: false } },
    })) as { llm: { replies: ChatMessage[] } };
    expect(out.llm.replies[0]?.text).toBe("again");
  });
});
