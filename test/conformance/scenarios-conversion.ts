import { z } from "zod";
import { assistant, chatMessageListSchema, chatMessageSchema, user } from "./components/chat-message.js";
import { defineTestComponent } from "./components/define.js";
import { doc, documentListSchema } from "./components/document.js";
import type { Scenario } from "./harness.js";

/** Automatic ChatMessage ↔ string conversions on connections (registered by `@junction/llm`). */

export const PisaChatGenerator = defineTestComponent({
  type: "conformance.conversion.PisaChatGenerator",
  inputs: { messages: chatMessageListSchema },
  outputs: { replies: chatMessageListSchema },
  run: () => ({ replies: [assistant("Pisa tower height")] }),
});

const PisaRetriever = defineTestComponent({
  type: "conformance.conversion.PisaRetriever",
  inputs: { query: z.string() },
  outputs: { documents: documentListSchema },
  run: () => ({ documents: [doc({ content: "Pisa tower height is 55 meters" })] }),
});

const FakeAgent = defineTestComponent({
  type: "conformance.conversion.FakeAgent",
  inputs: { messages: chatMessageListSchema },
  outputs: { last_message: chatMessageSchema },
  run: () => ({ last_message: assistant("Pisa tower is 55 meters tall") }),
});

const FakeAnswerBuilder = defineTestComponent({
  type: "conformance.conversion.FakeAnswerBuilder",
  inputs: { query: z.string(), replies: z.union([z.array(z.string()), chatMessageListSchema]) },
  outputs: { answers: z.array(z.string()) },
  run: ({ replies }) => ({
    answers: replies.map((reply) => (typeof reply === "string" ? reply : (reply.text ?? ""))),
  }),
});

const rephraseQuery = "Rephrase the following question for a search engine: how tall is the tower of Pisa?";
const pisaQuery = "How tall is the tower of Pisa?";
const pisaMessages = [user(pisaQuery)];

export const conversionScenarios: Scenario[] = [
  {
    name: "that performs automatic conversion between list of ChatMessage and str",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("chat_generator", new PisaChatGenerator());
      p.addComponent("retriever", new PisaRetriever());
      p.connect("chat_generator", "retriever");
      return p;
    },
    runs: [
      {
        inputs: { chat_generator: { messages: [user(rephraseQuery)] } },
        expectedOutputs: { retriever: { documents: [doc({ content: "Pisa tower height is 55 meters" })] } },
        expectedComponentCalls: {
          "chat_generator#1": { messages: [user(rephraseQuery)] },
          "retriever#1": { query: "Pisa tower height" },
        },
      },
    ],
  },
  {
    name: "that performs automatic conversion wrapping ChatMessage for a Union receiver",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("agent", new FakeAgent());
      p.addComponent("answer_builder", new FakeAnswerBuilder());
      p.connect("agent.last_message", "answer_builder.replies");
      return p;
    },
    runs: [
      {
        inputs: { agent: { messages: pisaMessages }, answer_builder: { query: pisaQuery } },
        expectedOutputs: { answer_builder: { answers: ["Pisa tower is 55 meters tall"] } },
        expectedComponentCalls: {
          "agent#1": { messages: pisaMessages },
          "answer_builder#1": { query: pisaQuery, replies: [assistant("Pisa tower is 55 meters tall")] },
        },
      },
    ],
  },
];
