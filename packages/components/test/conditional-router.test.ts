import { ConditionalRouter, NoRouteSelectedError, RouteConditionError } from "@junction/components";
import {
  ComponentError,
  getDefaultLogger,
  JunctionError,
  MemoryLogger,
  setDefaultLogger,
} from "@junction/core";
import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { roundTrip } from "./support/round-trip.js";

/** Ported from the reference's test/components/routers/test_conditional_router.py (Jinja → CEL). */

const $schema = "https://json-schema.org/draft/2020-12/schema";

const streamRoutes = [
  { condition: "size(streams) < 2", output: "query", outputType: z.string(), outputName: "query" },
  {
    condition: "size(streams) >= 2",
    output: "streams",
    outputType: z.array(z.number()),
    outputName: "streams",
  },
];

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

async function rejected(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("ConditionalRouter construction", () => {
  test("routes missing a mandatory field are rejected, every problem listed", () => {
    const error = thrown(
      () =>
        new ConditionalRouter({
          routes: [
            { condition: "size(streams) < 2", output: "query" },
            { condition: "size(streams) < 2", outputType: z.string() },
          ] as never,
        }),
    );
    expect(error).toBeInstanceOf(ComponentError);
    const paths = (error as ComponentError).issues.map((issue) => issue.path.join("."));
    expect(paths).toEqual(
      expect.arrayContaining([
        "params.routes.0.outputName",
        "params.routes.0.outputType",
        "params.routes.1.output",
        "params.routes.1.outputName",
      ]),
    );
    expect((error as ComponentError).message).toContain(
      'params.routes[0].outputName: the route has no "outputName". Every route needs condition, output, outputName and outputType',
    );
  });

  test("Python and Jinja spellings get the CEL spelling", () => {
    const problem = (condition: string) =>
      (
        thrown(
          () =>
            new ConditionalRouter({
              routes: [{ condition, output: "1", outputName: "n", outputType: z.number() }],
            }),
        ) as ComponentError
      ).message;
    expect(problem("a and b")).toContain("Hint: CEL writes `and` as `&&`.");
    expect(problem("a or b")).toContain("Hint: CEL writes `or` as `||`.");
    expect(problem("not a")).toContain("Hint: CEL writes `not x` as `!x`.");
    expect(problem("x = 1")).toContain("Hint: CEL compares with `==`");
    expect(problem("{{ x }} == 1")).toContain("write the variable without `{{ }}`");
    expect(problem("x == True")).toContain('reads a variable named "True": CEL spells the literals `true`');
    // Words inside string literals are not operators.
    expect(problem('x == "this and that" || y = 2')).not.toContain("`and`");
  });

  test("an int mixed with a double suggests the conversion", () => {
    const message = (
      thrown(
        () =>
          new ConditionalRouter({
            routes: [{ condition: "1 + 1.5 > 2.0", output: "1", outputName: "n", outputType: z.number() }],
          }),
      ) as ComponentError
    ).message;
    expect(message).toContain("CEL does not mix int and double in `+`");
  });

  test("a condition with a syntax error fails at construction, naming the route", () => {
    const error = thrown(
      () =>
        new ConditionalRouter({
          routes: [
            { condition: "size(streams < 2", output: "query", outputType: z.string(), outputName: "test" },
          ],
        }),
    ) as ComponentError;
    expect(error).toBeInstanceOf(ComponentError);
    expect(error.message).toContain('route 0 ("test"): the condition is not a valid CEL expression');
    expect(error.issues[0]?.path).toEqual(["params", "routes", 0, "condition"]);
  });

  test("outputs that are not strings are rejected with the position", () => {
    const error = thrown(
      () =>
        new ConditionalRouter({
          routes: [
            {
              condition: 'flag == "double"',
              output: ["streams", 2],
              outputName: ["streams", "num"],
              outputType: [z.array(z.number()), z.number()],
            },
          ] as never,
        }),
    ) as ComponentError;
    expect(error.issues.map((issue) => issue.path)).toContainEqual(["params", "routes", 0, "output"]);
  });

  test("an output expression with a syntax error names the route and the output", () => {
    const error = thrown(
      () =>
        new ConditionalRouter({
          routes: [{ condition: "true", output: "1 +", outputType: z.number(), outputName: "n" }],
        }),
    ) as ComponentError;
    expect(error.message).toContain('route 0 ("n"): the output "n" is not a valid CEL expression');
  });

  test("a condition whose static type is not bool is rejected", () => {
    const error = thrown(
      () =>
        new ConditionalRouter({
          routes: [{ condition: "'yes'", output: "1", outputType: z.number(), outputName: "n" }],
        }),
    ) as ComponentError;
    expect(error.message).toContain("must evaluate to a bool");
  });

  test("extra fields in a route are rejected", () => {
    expect(
      () =>
        new ConditionalRouter({
          routes: [{ ...streamRoutes[0], bla: "bla" } as never],
        }),
    ).toThrow(ComponentError);
  });

  test("a route that is not an object is rejected", () => {
    expect(
      () =>
        new ConditionalRouter({
          routes: [streamRoutes[0], ["size(streams) >= 2", "streams", z.array(z.number())]] as never,
        }),
    ).toThrow(ComponentError);
  });

  test("output, outputName and outputType lists must have the same length", () => {
    const error = thrown(
      () =>
        new ConditionalRouter({
          routes: [
            {
              condition: "size(streams) >= 2",
              output: ["streams", "query"],
              outputType: [z.array(z.number())],
              outputName: ["streams"],
            },
          ],
        }),
    ) as ComponentError;
    expect(error.message).toContain("must have the same length (got 2, 1 and 1)");
  });

  test("sockets: inputs are the expressions' variables, outputs the output names with their types", () => {
    const router = new ConditionalRouter({ routes: streamRoutes });
    expect(Object.keys(router.inputSockets).sort()).toEqual(["query", "streams"]);
    expect(Object.values(router.inputSockets).every((socket) => socket.mandatory)).toBe(true);
    expect(Object.keys(router.outputSockets).sort()).toEqual(["query", "streams"]);
    expect(router.outputSockets.streams?.schema).toBe(streamRoutes[1]?.outputType);
  });

  test("variables bound by macros are not inputs; variables used inside them are", () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: 'cel.bind(s, control == "something" ? 1 : 2, s == 1) && items.all(i, i < limit)',
          output: "query",
          outputName: "query",
          outputType: z.string(),
        },
      ],
    });
    expect(Object.keys(router.inputSockets).sort()).toEqual(["control", "items", "limit", "query"]);
  });
});

describe("ConditionalRouter routing", () => {
  test("the first route whose condition is true fires; only its sockets are emitted", async () => {
    const router = new ConditionalRouter({ routes: streamRoutes });
    expect(await router.run({ streams: [1, 2, 3], query: "test" })).toEqual({ streams: [1, 2, 3] });
    expect(await router.run({ streams: [1], query: "test" })).toEqual({ query: "test" });
  });

  test("routes are tried in order: an earlier true route wins over a later one", async () => {
    const router = new ConditionalRouter({
      routes: [
        { condition: "x > 1", output: "'first'", outputName: "a", outputType: z.string() },
        { condition: "x > 0", output: "'second'", outputName: "b", outputType: z.string() },
      ],
    });
    expect(await router.run({ x: 5 })).toEqual({ a: "first" });
    expect(await router.run({ x: 1 })).toEqual({ b: "second" });
  });

  test("an output that is a constant", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: "size(streams) > 2",
          output: "'This is a constant'",
          outputName: "enough_streams",
          outputType: z.string(),
        },
      ],
    });
    expect(await router.run({ streams: [1, 2, 3] })).toEqual({ enough_streams: "This is a constant" });
  });

  test("a complex condition over nested data (the last message's finish reason)", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: 'messages[size(messages) - 1].meta.finish_reason == "function_call"',
          output: "streams",
          outputType: z.array(z.number()),
          outputName: "streams",
        },
        { condition: "true", output: "query", outputType: z.string(), outputName: "query" },
      ],
    });
    const messages = [{ meta: { finish_reason: "stop" } }, { meta: { finish_reason: "function_call" } }];
    expect(await router.run({ messages, streams: [1, 2, 3], query: "my query" })).toEqual({
      streams: [1, 2, 3],
    });
  });

  test("no route fires → NoRouteSelectedError listing the routes", async () => {
    const router = new ConditionalRouter({
      routes: [
        { condition: "size(streams) < 2", output: "query", outputType: z.string(), outputName: "query" },
        {
          condition: "size(streams) >= 5",
          output: "streams",
          outputType: z.array(z.number()),
          outputName: "streams",
        },
      ],
    });
    const error = (await rejected(router.run({ streams: [1, 2, 3], query: "test" }))) as NoRouteSelectedError;
    expect(error).toBeInstanceOf(NoRouteSelectedError);
    expect(JunctionError.isInstance(error)).toBe(true);
    expect(error.code).toBe("NO_ROUTE_SELECTED");
    expect(error.message).toContain("size(streams) >= 5");
    expect(error.message).toContain('condition "true"');
  });

  test("string functions stand in for the reference's custom filters", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: 'int(phone_num.split("-")[0]) == 123',
          output: ["phone_num", 'int(phone_num.split("-")[0])'],
          outputName: ["phone_num", "area_code"],
          outputType: [z.string(), z.number()],
        },
        { condition: "true", output: "'other'", outputName: "bad_phone_num", outputType: z.string() },
      ],
    });
    expect(await router.run({ phone_num: "123-456-7890" })).toEqual({
      phone_num: "123-456-7890",
      area_code: 123,
    });
    expect(await router.run({ phone_num: "321-456-7890" })).toEqual({ bad_phone_num: "other" });
  });

  test("several outputs per route", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: "size(streams) >= 2",
          output: ["streams", "query"],
          outputType: [z.array(z.number()), z.string()],
          outputName: ["streams", "query"],
        },
        {
          condition: "size(streams) < 2",
          output: ["streams", "custom_error_message"],
          outputType: [z.array(z.number()), z.string()],
          outputName: ["streams", "custom_error_message"],
        },
      ],
    });
    const inputs = { query: "test_1", custom_error_message: "Not enough streams" };
    expect(await router.run({ ...inputs, streams: [1, 2, 3] })).toEqual({
      streams: [1, 2, 3],
      query: "test_1",
    });
    expect(await router.run({ ...inputs, streams: [1] })).toEqual({
      streams: [1],
      custom_error_message: "Not enough streams",
    });
  });
});

describe("ConditionalRouter native outputs (no string round trip)", () => {
  const router = (output: string) =>
    new ConditionalRouter({
      routes: [{ condition: "true", output, outputName: "out", outputType: z.any() }],
    });

  test("numbers stay numbers and strings that look like numbers stay strings", async () => {
    expect(await router("count + 1").run({ count: 3 })).toEqual({ out: 4 });
    expect(await router("text").run({ text: "42" })).toEqual({ out: "42" });
    expect(await router("ratio * 2.0").run({ ratio: 0.25 })).toEqual({ out: 0.5 });
  });

  test("inputs returned unchanged come out as the very same objects", async () => {
    class Payload {
      constructor(readonly body: string) {}
    }
    const payload = new Payload("x");
    const numbers = [1, 2, 3];
    expect((await router("payload").run({ payload })).out).toBe(payload);
    expect((await router("numbers").run({ numbers })).out).toBe(numbers);
    const items = [{ keep: true }, { keep: false }, { keep: true }];
    const kept = (await router("items.filter(i, i.keep)").run({ items })).out as object[];
    expect(kept).toHaveLength(2);
    expect(kept[0]).toBe(items[0]);
    expect(kept[1]).toBe(items[2]);
  });

  test("maps and lists built by the expression are plain values", async () => {
    expect(await router('{"n": size(xs), "first": xs[0]}').run({ xs: ["a", "b"] })).toEqual({
      out: { n: 2, first: "a" },
    });
    expect(await router("[x, x + 1]").run({ x: 1 })).toEqual({ out: [1, 2] });
  });

  test("optional chaining yields the value or the fallback", async () => {
    const adapter = router('meta.?finish_reason.orValue("none")');
    expect(await adapter.run({ meta: { finish_reason: "stop" } })).toEqual({ out: "stop" });
    expect(await adapter.run({ meta: {} })).toEqual({ out: "none" });
  });

  test("integers beyond Number.MAX_SAFE_INTEGER come out as bigint", async () => {
    expect(await router("9007199254740993").run({})).toEqual({ out: 9007199254740993n });
  });
});

describe("ConditionalRouter errors while routing", () => {
  test("a condition that fails to evaluate → RouteConditionError naming the route, with a hint", async () => {
    const router = new ConditionalRouter({
      routes: [
        { condition: 'doc.meta.lang == "en"', output: "doc", outputName: "english", outputType: z.any() },
      ],
    });
    const error = (await rejected(router.run({ doc: { meta: {} } }))) as RouteConditionError;
    expect(error).toBeInstanceOf(RouteConditionError);
    expect(error.code).toBe("ROUTE_CONDITION_ERROR");
    expect(error.routeIndex).toBe(0);
    expect(error.message).toContain('route 0 ("english")');
    expect(error.message).toContain('"doc.meta" has no key "lang". "doc.meta" has the keys (none).');
    expect(error.message).toContain(
      "guard it with has(doc.meta.lang) or read it with doc.meta.?lang.orValue(default)",
    );
  });

  test("a missing key lists the keys the map has, with a did-you-mean", async () => {
    const router = new ConditionalRouter({
      routes: [
        { condition: 'doc.meta.lnag == "en"', output: "doc", outputName: "english", outputType: z.any() },
      ],
    });
    const error = (await rejected(
      router.run({ doc: { meta: { lang: "en", source: "web" } } }),
    )) as RouteConditionError;
    expect(error.message).toContain('"doc.meta" has the keys "lang", "source". Did you mean "lang"?');
  });

  test("an int input mixed with a double at run time suggests double(value); has() is only for missing keys", async () => {
    const router = new ConditionalRouter({
      routes: [{ condition: "score + 0.5 > 1.0", output: "score", outputName: "high", outputType: z.any() }],
    });
    const error = (await rejected(router.run({ score: 1 }))) as RouteConditionError;
    expect(error.message).toContain(
      "CEL does not mix int and double in `+`: convert the left side, e.g. `double(score)`",
    );
    expect(error.message).not.toContain("has(");
  });

  test("a condition that evaluates to something other than a bool at run time", async () => {
    const router = new ConditionalRouter({
      routes: [{ condition: "flag", output: "1", outputName: "n", outputType: z.number() }],
    });
    const error = (await rejected(router.run({ flag: "yes" }))) as RouteConditionError;
    expect(error).toBeInstanceOf(RouteConditionError);
    expect(error.message).toContain("must evaluate to a bool, got a string");
    expect(await router.run({ flag: true })).toEqual({ n: 1 });
  });

  test("has() guards optional fields", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: 'has(doc.meta.lang) && doc.meta.lang == "en"',
          output: "doc",
          outputName: "en",
          outputType: z.any(),
        },
        { condition: "true", output: "doc", outputName: "other", outputType: z.any() },
      ],
    });
    expect(Object.keys(await router.run({ doc: { meta: {} } }))).toEqual(["other"]);
    expect(Object.keys(await router.run({ doc: { meta: { lang: "en" } } }))).toEqual(["en"]);
  });
});

describe("ConditionalRouter validateOutputType", () => {
  const validating = (outputType: z.ZodType) =>
    new ConditionalRouter({
      routes: [{ condition: "true", output: "value", outputType, outputName: "result" }],
      validateOutputType: true,
    });

  test("checks the value against a union type (list[str] | dict[str, int] | None)", async () => {
    const router = validating(z.union([z.array(z.string()), z.record(z.string(), z.number()), z.null()]));
    expect(await router.run({ value: ["a", "b"] })).toEqual({ result: ["a", "b"] });
    expect(await router.run({ value: { key: 1 } })).toEqual({ result: { key: 1 } });
    expect(await router.run({ value: null })).toEqual({ result: null });
    const error = (await rejected(router.run({ value: 42 }))) as RouteConditionError;
    expect(error).toBeInstanceOf(RouteConditionError);
    expect(error.message).toContain('route 0 ("result") produced outputs that do not match their outputType');
  });

  test("a plain string does not pass as a list of strings", async () => {
    const router = validating(z.array(z.string()));
    expect(await router.run({ value: ["a"] })).toEqual({ result: ["a"] });
    await expect(router.run({ value: "hello" })).rejects.toThrow(RouteConditionError);
  });

  test("without validateOutputType a mismatching value is routed as is", async () => {
    const router = new ConditionalRouter({
      routes: [{ condition: "true", output: "value", outputType: z.number(), outputName: "result" }],
    });
    expect(await router.run({ value: "not a number" })).toEqual({ result: "not a number" });
  });
});

describe("ConditionalRouter optional variables", () => {
  test("a missing optional variable is null, so a fallback route can take over", async () => {
    const router = new ConditionalRouter({
      routes: [
        { condition: 'path == "rag"', output: "question", outputName: "normal", outputType: z.string() },
        {
          condition: 'path == "followup_short"',
          output: "question",
          outputName: "followup_short",
          outputType: z.string(),
        },
        { condition: "true", output: "question", outputName: "fallback", outputType: z.string() },
      ],
      optionalVariables: ["path"],
    });
    expect(router.inputSockets.path?.mandatory).toBe(false);
    expect(router.inputSockets.question?.mandatory).toBe(true);
    expect(await router.run({ question: "What?" })).toEqual({ fallback: "What?" });
    expect(await router.run({ question: "What?", path: "rag" })).toEqual({ normal: "What?" });
  });

  test("several optional variables in combination", async () => {
    const routes = [
      {
        condition: 'mode == "chat" && language == "en" && source == "doc"',
        output: "question",
        outputName: "en_doc_chat",
      },
      { condition: 'mode == "qa" && source == "web"', output: "question", outputName: "web_qa" },
      { condition: 'mode == "qa" && source == "doc"', output: "question", outputName: "doc_qa" },
      { condition: 'mode == "chat" && language == "en"', output: "question", outputName: "en_chat" },
      { condition: 'mode == "chat"', output: "question", outputName: "default_chat" },
      { condition: "true", output: "question", outputName: "fallback" },
    ].map((route) => ({ ...route, outputType: z.string() }));
    const router = new ConditionalRouter({ routes, optionalVariables: ["source", "language"] });
    expect(await router.run({ question: "What?", mode: "chat" })).toEqual({ default_chat: "What?" });
    expect(await router.run({ question: "What?", mode: "chat", language: "en", source: "doc" })).toEqual({
      en_doc_chat: "What?",
    });
    expect(await router.run({ question: "What?", mode: "qa", source: "web" })).toEqual({ web_qa: "What?" });
    expect(await router.run({ question: "What?", mode: "qa" })).toEqual({ fallback: "What?" });
  });

  describe("unused optional variables", () => {
    const previous = getDefaultLogger();
    afterEach(() => setDefaultLogger(previous));

    test("are reported as a warning and do not break the router", async () => {
      const logger = new MemoryLogger();
      setDefaultLogger(logger);
      const router = new ConditionalRouter({
        routes: [
          { condition: 'mode == "chat"', output: "question", outputName: "chat", outputType: z.string() },
          { condition: "true", output: "question", outputName: "fallback", outputType: z.string() },
        ],
        optionalVariables: ["unused_var1", "unused_var2"],
      });
      expect(logger.messages("warn")).toEqual([
        'ConditionalRouter: the optional variables "unused_var1", "unused_var2" are not used in any route. Check them for typos.',
      ]);
      expect(await router.run({ question: "What?", mode: "chat" })).toEqual({ chat: "What?" });
    });

    test("a CEL type name used like a variable gets a hint, since it can never be an input", () => {
      expect(
        () =>
          new ConditionalRouter({
            routes: [
              { condition: 'type == "question"', output: "text", outputName: "out", outputType: z.string() },
            ],
          }),
      ).toThrow('"type" is CEL\'s type `type`, not a variable');
      const router = new ConditionalRouter({
        routes: [
          { condition: "type(value) == string", output: "value", outputName: "out", outputType: z.string() },
        ],
      });
      expect(Object.keys(router.inputSockets)).toEqual(["value"]);
    });
  });
});

describe("ConditionalRouter passthrough", () => {
  test("forwards the named inputs untouched, class instances included", async () => {
    class CustomDocument {
      constructor(
        readonly content: string,
        readonly metadata: Record<string, string>,
      ) {}
    }
    const router = new ConditionalRouter({
      routes: [
        {
          condition: "is_important",
          output: "document",
          outputName: "important",
          outputType: z.any(),
          outputPassthrough: true,
        },
        {
          condition: "!is_important",
          output: "document",
          outputName: "regular",
          outputType: z.any(),
          outputPassthrough: true,
        },
      ],
    });
    expect(Object.keys(router.inputSockets).sort()).toEqual(["document", "is_important"]);
    const doc = new CustomDocument("Important", { priority: "high" });
    expect((await router.run({ is_important: true, document: doc })).important).toBe(doc);
    expect((await router.run({ is_important: false, document: doc })).regular).toBe(doc);
  });

  test("mixes with expression routes", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: 'mode == "direct"',
          output: "data",
          outputName: "direct_route",
          outputType: z.array(z.number()),
          outputPassthrough: true,
        },
        {
          condition: 'mode == "transform"',
          output: "data.map(x, x * 2)",
          outputName: "transformed_route",
          outputType: z.array(z.number()),
        },
      ],
    });
    const list = [1, 2, 3];
    expect((await router.run({ mode: "direct", data: list })).direct_route).toBe(list);
    expect(await router.run({ mode: "transform", data: list })).toEqual({ transformed_route: [2, 4, 6] });
  });

  test("several passthrough outputs", async () => {
    const payload = { body: "test" };
    const router = new ConditionalRouter({
      routes: [
        {
          condition: "flag",
          output: ["label", "payload"],
          outputName: ["out_label", "out_payload"],
          outputType: [z.string(), z.any()],
          outputPassthrough: true,
        },
      ],
    });
    const result = await router.run({ flag: true, label: "hello", payload });
    expect(result).toEqual({ out_label: "hello", out_payload: payload });
    expect(result.out_payload).toBe(payload);
  });

  test("validateOutputType checks passthrough values too", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: "true",
          output: "value",
          outputName: "out",
          outputType: z.number(),
          outputPassthrough: true,
        },
      ],
      validateOutputType: true,
    });
    await expect(router.run({ value: "not_an_int" })).rejects.toThrow(/do not match their outputType/);
  });

  test("an optional passthrough variable that received nothing routes null", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: "true",
          output: "maybe_value",
          outputName: "out",
          outputType: z.string().nullable(),
          outputPassthrough: true,
        },
      ],
      optionalVariables: ["maybe_value"],
    });
    expect(await router.run({})).toEqual({ out: null });
  });

  test("passthrough outputs must be input names", () => {
    expect(
      () =>
        new ConditionalRouter({
          routes: [
            {
              condition: "true",
              output: "{{unclosed",
              outputName: "out",
              outputType: z.string(),
              outputPassthrough: true,
            },
          ],
        }),
    ).toThrow(/is not a valid name/);
  });
});

describe("ConditionalRouter serialization", () => {
  test("init_parameters are JSON and the rebuilt router behaves the same", async () => {
    const router = new ConditionalRouter({ routes: streamRoutes });
    const { initParameters, copy } = roundTrip(router);
    expect(initParameters).toEqual({
      routes: [
        {
          condition: "size(streams) < 2",
          output: "query",
          outputName: "query",
          outputType: { $schema, type: "string" },
        },
        {
          condition: "size(streams) >= 2",
          output: "streams",
          outputName: "streams",
          outputType: { $schema, type: "array", items: { type: "number" } },
        },
      ],
      optionalVariables: [],
      validateOutputType: false,
    });
    const inputs = { streams: [1, 2, 3], query: "Haystack" };
    expect(await copy.run(inputs)).toEqual(await router.run(inputs));
    expect(await copy.run(inputs)).toEqual({ streams: [1, 2, 3] });
    expect(Object.keys(copy.outputSockets)).toEqual(Object.keys(router.outputSockets));
  });

  test("serializing twice gives the same document and does not change the router", async () => {
    const router = new ConditionalRouter({ routes: streamRoutes, optionalVariables: ["query"] });
    const first = roundTrip(router).initParameters;
    const second = roundTrip(router).initParameters;
    expect(second).toEqual(first);
    expect(router.outputSockets.query?.schema).toBe(streamRoutes[0]?.outputType);
    expect(await router.run({ streams: [1], query: "test" })).toEqual({ query: "test" });
    expect(roundTrip(roundTrip(router).copy).initParameters).toEqual(first);
  });

  test("list outputs, passthrough and validateOutputType survive the round trip", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: "flag",
          output: ["value", "label"],
          outputName: ["matched", "label"],
          outputType: [z.string(), z.string()],
          outputPassthrough: true,
        },
        {
          condition: "!flag",
          output: "value",
          outputName: "unmatched",
          outputType: z.string(),
          outputPassthrough: true,
        },
      ],
      validateOutputType: true,
    });
    const { initParameters, copy } = roundTrip(router);
    expect(
      (initParameters.routes as { outputPassthrough?: boolean }[]).map((route) => route.outputPassthrough),
    ).toEqual([true, true]);
    expect(await copy.run({ flag: true, value: "hello", label: "l" })).toEqual({
      matched: "hello",
      label: "l",
    });
    expect(await copy.run({ flag: false, value: "hello", label: "l" })).toEqual({ unmatched: "hello" });
    await expect(copy.run({ flag: false, value: 1, label: "l" })).rejects.toThrow(RouteConditionError);
  });

  test("a document with JSON Schema output types builds a working router", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: "size(streams) < 2",
          output: "query",
          outputType: { type: "string" },
          outputName: "query",
        },
        {
          condition: "size(streams) >= 2",
          output: "streams",
          outputType: { type: "array", items: { type: "integer" } },
          outputName: "streams",
        },
      ],
      validateOutputType: true,
    });
    expect(await router.run({ streams: [1, 2, 3], query: "Haystack" })).toEqual({ streams: [1, 2, 3] });
    await expect(router.run({ streams: [1.5, 2.5], query: "Haystack" })).rejects.toThrow(RouteConditionError);
  });
});
