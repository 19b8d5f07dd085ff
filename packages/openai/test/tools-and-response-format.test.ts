import { JunctionError } from "@junction/core";
import { ChatMessage, supportsResponseFormat, Toolset, tool } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { completion } from "./support/fake-openai-server.js";
import { useHarness } from "./support/harness.js";

const h = useHarness();
const question = [ChatMessage.fromUser("What's the weather in Paris?")];

const weather = tool({
  name: "weather",
  description: "useful to determine the weather in a given location",
  parameters: z.object({ city: z.string(), unit: z.enum(["c", "f"]).optional() }),
  function: ({ city }) => `sunny in ${city}`,
});
const clock = tool({
  name: "clock",
  description: "the current time",
  parameters: { type: "object", properties: {} },
  function: () => "noon",
});

describe("tools", () => {
  it("describes the tools as JSON Schema functions", async () => {
    h.server.enqueue(completion());
    await new OpenAIChatGenerator({ baseURL: h.server.baseURL, tools: [weather] }).run({
      messages: question,
    });
    expect(h.server.requests[0]?.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "weather",
          description: "useful to determine the weather in a given location",
          parameters: weather.spec.parameters,
        },
      },
    ]);
  });

  it("marks tools strict and closes their schemas with toolsStrict", async () => {
    h.server.enqueue(completion());
    await new OpenAIChatGenerator({ baseURL: h.server.baseURL, tools: [weather], toolsStrict: true }).run({
      messages: question,
    });
    const fn = ((h.server.requests[0]?.body.tools ?? []) as { function: Record<string, unknown> }[])[0]
      ?.function;
    expect(fn?.strict).toBe(true);
    expect(fn?.parameters).toMatchObject({ additionalProperties: false, required: ["city", "unit"] });
  });

  it("lets run-time tools and tools_strict replace the init ones", async () => {
    h.server.enqueue(completion());
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL, tools: [weather] });
    await generator.run({ messages: question, tools: new Toolset([clock]), tools_strict: true });
    const tools = h.server.requests[0]?.body.tools as { function: Record<string, unknown> }[];
    expect(tools.map((t) => [t.function.name, t.function.strict])).toEqual([["clock", true]]);
  });

  it("accepts a mix of tools and toolsets", async () => {
    h.server.enqueue(completion());
    await new OpenAIChatGenerator({ baseURL: h.server.baseURL, tools: [weather, new Toolset([clock])] }).run({
      messages: question,
    });
    const tools = h.server.requests[0]?.body.tools as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual(["weather", "clock"]);
  });

  it("rejects duplicate tool names at construction", () => {
    expect(() => new OpenAIChatGenerator({ tools: [weather, new Toolset([weather])] })).toThrow(
      /duplicate tool names.*"weather"/s,
    );
  });

  it("sends no tools field when there are none", async () => {
    h.server.enqueue(completion());
    await new OpenAIChatGenerator({ baseURL: h.server.baseURL }).run({ messages: question });
    expect(h.server.requests[0]?.body).not.toHaveProperty("tools");
  });
});

describe("responseFormat", () => {
  const CalendarEvent = z
    .object({ event_name: z.string(), event_date: z.string(), event_location: z.string().optional() })
    .meta({ title: "CalendarEvent" });

  it("sends a zod schema as a strict json_schema response format", async () => {
    h.server.enqueue(
      completion({ content: '{"event_name":"Meetup","event_date":"2025-01-01","event_location":"Paris"}' }),
    );
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL, responseFormat: CalendarEvent });
    const { replies = [] } = await generator.run({ messages: question });
    expect(h.server.requests[0]?.body.response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "CalendarEvent",
        strict: true,
        schema: {
          type: "object",
          title: "CalendarEvent",
          properties: {
            event_name: { type: "string" },
            event_date: { type: "string" },
            event_location: { type: "string" },
          },
          required: ["event_name", "event_date", "event_location"],
          additionalProperties: false,
        },
      },
    });
    expect(CalendarEvent.parse(JSON.parse(replies[0]?.text ?? ""))).toMatchObject({ event_name: "Meetup" });
  });

  it("keeps the JSON form in params, so the component serializes", () => {
    const generator = new OpenAIChatGenerator({ responseFormat: CalendarEvent });
    expect(generator.params.responseFormat).toMatchObject({
      type: "json_schema",
      json_schema: { name: "CalendarEvent" },
    });
  });

  it("lets a response_format generation kwarg win over the param", async () => {
    h.server.enqueue(completion({ content: "{}" }));
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL, responseFormat: CalendarEvent });
    await generator.run({
      messages: question,
      generation_kwargs: { response_format: { type: "json_object" } },
    });
    expect(h.server.requests[0]?.body.response_format).toEqual({ type: "json_object" });
  });

  it("takes a run's response_format input (the chat generator contract) over the kwarg and the param, made strict", async () => {
    h.server.enqueue(completion({ content: '{"label":"spam"}' }));
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL, responseFormat: CalendarEvent });
    expect(supportsResponseFormat(generator)).toBe(true);
    await generator.run({
      messages: question,
      generation_kwargs: { response_format: { type: "json_object" } },
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "Label",
          strict: true,
          schema: { type: "object", properties: { label: { type: "string" }, note: { type: "string" } } },
        },
      },
    });
    expect(h.server.requests[0]?.body.response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "Label",
        strict: true,
        schema: {
          type: "object",
          properties: { label: { type: "string" }, note: { type: "string" } },
          required: ["label", "note"],
          additionalProperties: false,
        },
      },
    });
  });

  it("sends a non-strict run response_format as given", async () => {
    h.server.enqueue(completion({ content: "{}" }));
    const schema = { type: "object", properties: { label: { type: "string" } } };
    await new OpenAIChatGenerator({ baseURL: h.server.baseURL }).run({
      messages: question,
      response_format: { type: "json_schema", json_schema: { name: "Label", schema } },
    });
    expect(h.server.requests[0]?.body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "Label", schema },
    });
  });

  it("streams with a response format too", async () => {
    h.server.enqueue({
      kind: "stream",
      events: [
        {
          id: "x",
          object: "chat.completion.chunk",
          created: 1,
          model: "m",
          choices: [{ index: 0, delta: { content: '{"a":' }, finish_reason: null }],
        },
        {
          id: "x",
          object: "chat.completion.chunk",
          created: 1,
          model: "m",
          choices: [{ index: 0, delta: { content: "1}" }, finish_reason: "stop" }],
        },
      ],
    });
    const generator = new OpenAIChatGenerator({
      baseURL: h.server.baseURL,
      responseFormat: { type: "json_object" },
    });
    const { replies = [] } = await generator.run({ messages: question, streaming_callback: () => {} });
    expect(JSON.parse(replies[0]?.text ?? "")).toEqual({ a: 1 });
    expect(h.server.requests[0]?.body).toMatchObject({
      stream: true,
      response_format: { type: "json_object" },
    });
  });

  it("rejects a response format that is neither a zod schema nor a response_format object", () => {
    let error: unknown;
    try {
      new OpenAIChatGenerator({ responseFormat: { type: "json_schema" } as never });
    } catch (caught) {
      error = caught;
    }
    expect(JunctionError.isInstance(error) && error.issues[0]?.path).toEqual(["params", "responseFormat"]);
  });
});
