import { MemoryLogger } from "@junction/core";
import { ChatMessage, stringifyToolResult, ToolInvocationError, toolResultToString } from "@junction/llm";
import { describe, expect, test } from "vitest";

const png =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

describe("toolResultToString", () => {
  const plain = { name: "t" };

  test("strings unchanged, everything else as JSON", () => {
    expect(toolResultToString(plain, "hello")).toBe("hello");
    expect(toolResultToString(plain, { a: "ü", b: [1, 2] })).toBe('{"a":"ü","b":[1,2]}');
    expect(toolResultToString(plain, 42)).toBe("42");
    expect(toolResultToString(plain, undefined)).toBe("null");
    expect(toolResultToString(plain, ChatMessage.fromUser("x"))).toBe(
      JSON.stringify({ role: "user", content: [{ text: "x" }], name: null, meta: {} }),
    );
  });

  test("falls back to String() with a warning when JSON fails", () => {
    const logger = new MemoryLogger();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toolResultToString(plain, cyclic, { logger })).toBe("[object Object]");
    expect(logger.records.map((record) => record.level)).toEqual(["warn"]);
    expect(stringifyToolResult(10n, new MemoryLogger())).toBe("10");
  });

  test("single-output config: source and handler", () => {
    const t = {
      name: "t",
      outputsToString: { source: "docs", handler: (docs: unknown) => `${(docs as string[]).length} docs` },
    };
    expect(toolResultToString(t, { docs: ["a", "b"], other: 1 })).toBe("2 docs");
    expect(toolResultToString({ name: "t", outputsToString: { source: "docs" } }, { docs: ["a"] })).toBe(
      '["a"]',
    );
    // source only applies to object results
    expect(toolResultToString({ name: "t", outputsToString: { source: "docs" } }, "plain")).toBe("plain");
  });

  test("rawResult passes text/image part lists through", () => {
    const parts = [
      { type: "text", text: "chart:" },
      { type: "image", image: { base64Image: png, mimeType: "image/png" } },
    ];
    const raw = toolResultToString({ name: "t", outputsToString: { rawResult: true } }, parts);
    expect(raw).toEqual(parts);
    expect(ChatMessage.fromTool(raw, { toolName: "t", arguments: {} }).toolCallResult?.result).toEqual(parts);
    expect(toolResultToString({ name: "t", outputsToString: { rawResult: true } }, { a: 1 })).toBe('{"a":1}');
  });

  test("multi-output config collects each entry and sends JSON", () => {
    const t = {
      name: "t",
      outputsToString: {
        formatted: { source: "docs", handler: (docs: unknown) => (docs as string[]).join(", ") },
        summary: { source: "summary", handler: (text: unknown) => String(text).toUpperCase() },
        count: { source: "count" },
      },
    };
    expect(toolResultToString(t, { docs: ["a", "b"], summary: "ok", count: 2 })).toBe(
      '{"formatted":"a, b","summary":"OK","count":"2"}',
    );
  });

  test("a failing handler falls back with a warning, or raises when asked", () => {
    const t = {
      name: "t",
      outputsToString: {
        handler: () => {
          throw new Error("bad handler");
        },
      },
    };
    const logger = new MemoryLogger();
    expect(toolResultToString(t, { a: 1 }, { logger })).toBe('{"a":1}');
    expect(logger.records[0]?.message).toMatch(/Tool "t": outputsToString handler failed/);
    expect(() => toolResultToString(t, { a: 1 }, { raiseOnFailure: true, logger })).toThrow(
      ToolInvocationError,
    );
  });
});
