/**
 * examples/haystack-yaml.ts: Haystack's own YAML is refused with every reason, the hand-converted one
 * loads and runs — offline with a scripted model, and with its OpenAIChatGenerator against a local
 * OpenAI-compatible server.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../examples/haystack-yaml.js";
import { completion, startFakeOpenAIServer } from "../packages/openai/test/support/fake-openai-server.js";
import { outputBuffer } from "./support/output-buffer.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("haystack-yaml example", () => {
  it("names why Haystack's YAML is refused, and the converted one answers from the store offline", async () => {
    const out = outputBuffer();
    const directory = mkdtempSync(join(tmpdir(), "junction-haystack-yaml-test-"));
    const result = await main({ write: out.write, env: {}, directory });
    // Every reason at once, each at its path: the missing version and the three Python import paths.
    expect(result.refused.map((line) => line.slice(0, line.indexOf(":")))).toEqual([
      "version",
      "components.retriever.type",
      "components.prompt_builder.type",
      "components.llm.type",
    ]);
    expect(result.refused[1]).toContain(
      "haystack.components.retrievers.in_memory.bm25_retriever.InMemoryBM25Retriever",
    );
    expect(out.text()).toContain("converted YAML loads: retriever → prompt_builder → llm");
    expect(out.text()).toContain("offline: llm swapped");
    expect(result.answer).toBe("Lake Baikal is the deepest lake on Earth, at 1,642 metres.");
  });

  it("the converted OpenAIChatGenerator keeps Haystack's model, generation kwargs and prompt", async () => {
    const server = await startFakeOpenAIServer();
    try {
      server.enqueue(completion({ content: "Baikal." }));
      vi.stubEnv("OPENAI_BASE_URL", server.baseURL);
      vi.stubEnv("OPENAI_API_KEY", "sk-test");
      const out = outputBuffer();
      const directory = mkdtempSync(join(tmpdir(), "junction-haystack-yaml-test-"));
      const result = await main({ write: out.write, env: process.env, directory });
      expect(result.answer).toBe("Baikal.");
      expect(out.text()).not.toContain("offline");
      const body = server.requests[0]?.body as {
        model: string;
        temperature: number;
        messages: { content: unknown }[];
      };
      expect(body.model).toBe("gpt-4o-mini");
      expect(body.temperature).toBe(0);
      expect(JSON.stringify(body.messages)).toContain("Lake Baikal is the deepest lake");
      expect(JSON.stringify(body.messages)).toContain("Question: Which lake is the deepest?");
    } finally {
      await server.close();
    }
  });
});
