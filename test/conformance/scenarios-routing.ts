import { z } from "zod";
import { BranchJoiner, ConditionalRouter, PromptBuilder } from "./components/builtins.js";
import { defineTestComponent } from "./components/define.js";
import { type Document, doc, documentListSchema } from "./components/document.js";
import { DocumentCleaner, DocumentJoiner, MockTextEmbedder } from "./components/fakes.js";
import type { Scenario } from "./harness.js";

/**
 * Routers and conditional outputs: receivers whose senders produced nothing, optional inputs that keep their
 * defaults, variadic joins that receive only some values, and a receiver that can never run.
 */

const FakeGenerator = defineTestComponent({
  type: "conformance.branches.FakeGenerator",
  inputs: { prompt: z.string() },
  outputs: { replies: z.array(z.string()) },
  run: ({ prompt }) => ({
    replies: [prompt.includes("no_answer") ? "There's simply no_answer to this question" : "Some SQL query"],
  }),
});

const FakeSQLQuerier = defineTestComponent({
  type: "conformance.branches.FakeSQLQuerier",
  inputs: { query: z.string() },
  outputs: { results: z.string() },
  // As in the reference, `run` also returns an undeclared key.
  run: ({ query }) => ({ results: "This is the query result", query }) as { results: string },
});

const FakeRouter = defineTestComponent({
  type: "conformance.branches.FakeRouter",
  inputs: { query: z.string() },
  outputs: { LEGIT: z.string(), INJECTION: z.string() },
  run: ({ query }) => (query.includes("injection") ? { INJECTION: query } : { LEGIT: query }),
});

const doc1 = doc({ content: "This is a document" });
const doc2 = doc({ content: "This is another document" });

const FakeRanker = defineTestComponent({
  type: "conformance.branches.FakeRanker",
  inputs: { query: z.string(), documents: documentListSchema },
  outputs: { documents: documentListSchema },
  run: ({ documents }) => ({ documents }),
});

const FakeRetriever = defineTestComponent({
  type: "conformance.branches.FakeRetriever",
  inputs: { query: z.string() },
  outputs: { documents: documentListSchema },
  run: ({ query }) => ({ documents: query.includes("injection") ? [] : [doc1] }),
});

const FakeEmbeddingRetriever = defineTestComponent({
  type: "conformance.branches.FakeEmbeddingRetriever",
  inputs: { query_embedding: z.array(z.number()) },
  outputs: { documents: documentListSchema },
  run: () => ({ documents: [doc2] }),
});

const ConditionalDocumentCreator = defineTestComponent({
  type: "conformance.branches.ConditionalDocumentCreator",
  params: z.object({ content: z.string() }),
  inputs: { create_document: z.boolean().default(false) },
  outputs: { documents: documentListSchema, noop: z.null() },
  run: ({ create_document }, { params }) =>
    create_document ? { documents: [doc({ id: params.content, content: params.content })] } : { noop: null },
});

const doc1Created = doc({ id: "First document", content: "First document" });
const doc2Created = doc({ id: "Second document", content: "Second document" });
const doc3Created = doc({ id: "Third document", content: "Third document" });

const NoOp = defineTestComponent({
  type: "conformance.branches.NoOp",
  inputs: { documents: documentListSchema },
  outputs: { documents: documentListSchema },
  run: ({ documents }) => ({ documents }),
});

const CommaSplitter = defineTestComponent({
  type: "conformance.branches.CommaSplitter",
  inputs: { documents: documentListSchema },
  outputs: { documents: documentListSchema },
  run: ({ documents }) => {
    const splits: Document[] = [];
    for (const item of documents) {
      for (const part of (item.content ?? "").split(",")) {
        splits.push(doc({ content: part, id: String(splits.length) }));
      }
    }
    return { documents: splits };
  },
});

const PayloadBuilder = defineTestComponent({
  type: "conformance.branches.PayloadBuilder",
  inputs: { streams: z.array(z.number()), query: z.string() },
  outputs: { payload: z.record(z.string(), z.any()) },
  run: ({ streams, query }) => ({ payload: { streams, query } }),
});

const document = doc({
  id: "1000",
  content: "This document has so many, sentences. Like this one, or this one. Or even this other one.",
});
const expected_docs = [
  doc({ id: "0", content: "This document has so many" }),
  doc({ id: "1", content: " sentences. Like this one" }),
  doc({ id: "2", content: " or this one. Or even this other one." }),
];

const columns = "Age, Absenteeism_time_in_hours, Days, Disciplinary_failure";

function sqlPipelineTemplate(): string {
  return `Please generate an SQL query. The query should answer the following Question: {{ question }};
If the question cannot be answered given the provided table and columns, return 'no_answer'
The query is to be answered for the table is called 'absenteeism' with the following
Columns: {{ columns }};
Answer:`;
}

export const routingScenarios: Scenario[] = [
  {
    name: "that has a component with default inputs that doesn't receive anything from its sender",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent(
        "router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'sentence.contains("reisen")',
              output: '"German"',
              outputName: "language_1",
              outputType: z.string(),
            },
            {
              condition: 'sentence.contains("viajar")',
              output: '"Spanish"',
              outputName: "language_2",
              outputType: z.string(),
            },
          ],
        }),
      );
      p.addComponent(
        "pb",
        new PromptBuilder({ template: "Ok, I know, that's {{language}}", requiredVariables: [] }),
      );
      p.connect("router.language_2", "pb.language");
      return p;
    },
    runs: [
      {
        inputs: { router: { sentence: "Wir mussen reisen" } },
        expectedOutputs: { router: { language_1: "German" } },
        expectedComponentCalls: { "router#1": { sentence: "Wir mussen reisen" } },
      },
      {
        inputs: { router: { sentence: "Yo tengo que viajar" } },
        expectedOutputs: { pb: { prompt: "Ok, I know, that's Spanish" } },
        expectedComponentCalls: {
          "pb#1": { language: "Spanish", template: undefined, template_variables: undefined },
          "router#1": { sentence: "Yo tengo que viajar" },
        },
      },
    ],
  },
  {
    name: "that has a component with default inputs that doesn't receive anything from its sender but receives input from user",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent(
        "prompt",
        new PromptBuilder({ template: sqlPipelineTemplate(), requiredVariables: ["question", "columns"] }),
      );
      p.addComponent("llm", new FakeGenerator());
      p.addComponent(
        "router",
        new ConditionalRouter({
          routes: [
            {
              condition: '!replies[0].contains("no_answer")',
              output: "replies[0]",
              outputName: "sql",
              outputType: z.string(),
            },
            {
              condition: 'replies[0].contains("no_answer")',
              output: "question",
              outputName: "go_to_fallback",
              outputType: z.string(),
            },
          ],
        }),
      );
      p.addComponent(
        "fallback_prompt",
        new PromptBuilder({
          template: `User entered a query that cannot be answered with the given table.
The query was: {{ question }} and the table had columns: {{ columns }}.
Let the user know why the question cannot be answered`,
          requiredVariables: ["question"],
        }),
      );
      p.addComponent("fallback_llm", new FakeGenerator());
      p.addComponent("sql_querier", new FakeSQLQuerier());
      p.connect("prompt", "llm");
      p.connect("llm.replies", "router.replies");
      p.connect("router.sql", "sql_querier.query");
      p.connect("router.go_to_fallback", "fallback_prompt.question");
      p.connect("fallback_prompt", "fallback_llm");
      return p;
    },
    runs: [
      {
        inputs: {
          prompt: { question: "This is a question with no_answer", columns: columns },
          router: { question: "This is a question with no_answer" },
        },
        expectedOutputs: { fallback_llm: { replies: ["There's simply no_answer to this question"] } },
        expectedComponentCalls: {
          "fallback_llm#1": {
            prompt:
              "User entered a query that cannot be answered with the given table.\nThe query was: This is a question with no_answer and the table had columns: .\nLet the user know why the question cannot be answered",
          },
          "fallback_prompt#1": {
            columns: "",
            question: "This is a question with no_answer",
            template: undefined,
            template_variables: undefined,
          },
          "llm#1": {
            prompt:
              "Please generate an SQL query. The query should answer the following Question: This is a question with no_answer;\nIf the question cannot be answered given the provided table and columns, return 'no_answer'\nThe query is to be answered for the table is called 'absenteeism' with the following\nColumns: Age, Absenteeism_time_in_hours, Days, Disciplinary_failure;\nAnswer:",
          },
          "prompt#1": {
            columns: "Age, Absenteeism_time_in_hours, Days, Disciplinary_failure",
            question: "This is a question with no_answer",
            template: undefined,
            template_variables: undefined,
          },
          "router#1": {
            question: "This is a question with no_answer",
            replies: ["There's simply no_answer to this question"],
          },
        },
      },
    ],
  },
  {
    name: "that is linear with conditional branching and multiple joins",
    build: ({ pipeline }) => {
      const p = pipeline();
      p.addComponent("router", new FakeRouter());
      p.addComponent("text_embedder", new MockTextEmbedder({ embedding: [1.0, 2.0, 3.0] }));
      p.addComponent("retriever", new FakeEmbeddingRetriever());
      p.addComponent("emptyretriever", new FakeRetriever());
      p.addComponent("joinerfinal", new DocumentJoiner());
      p.addComponent("joinerhybrid", new DocumentJoiner());
      p.addComponent("ranker", new FakeRanker());
      p.addComponent("bm25retriever", new FakeRetriever());
      p.connect("router.INJECTION", "emptyretriever.query");
      p.connect("router.LEGIT", "text_embedder.text");
      p.connect("text_embedder", "retriever.query_embedding");
      p.connect("router.LEGIT", "ranker.query");
      p.connect("router.LEGIT", "bm25retriever.query");
      p.connect("bm25retriever", "joinerhybrid.documents");
      p.connect("retriever", "joinerhybrid.documents");
      p.connect("joinerhybrid.documents", "ranker.documents");
      p.connect("ranker", "joinerfinal.documents");
      p.connect("emptyretriever", "joinerfinal.documents");
      return p;
    },
    runs: [
      {
        inputs: { router: { query: "I'm a legit question" } },
        expectedOutputs: {
          text_embedder: { meta: { model: "mock-model", usage: { prompt_tokens: 4, total_tokens: 4 } } },
          joinerfinal: { documents: [doc1, doc2] },
        },
        expectedComponentCalls: {
          "router#1": { query: "I'm a legit question" },
          "text_embedder#1": { text: "I'm a legit question" },
          "bm25retriever#1": { query: "I'm a legit question" },
          "retriever#1": { query_embedding: [1.0, 2.0, 3.0] },
          "joinerhybrid#1": { documents: [[doc1], [doc2]], top_k: undefined },
          "ranker#1": { query: "I'm a legit question", documents: [doc1, doc2] },
          "joinerfinal#1": { documents: [[doc1, doc2]], top_k: undefined },
        },
      },
      {
        inputs: { router: { query: "I'm a nasty prompt injection" } },
        expectedOutputs: { joinerfinal: { documents: [] } },
        expectedComponentCalls: {
          "router#1": { query: "I'm a nasty prompt injection" },
          "emptyretriever#1": { query: "I'm a nasty prompt injection" },
          "joinerfinal#1": { documents: [[]], top_k: undefined },
        },
      },
    ],
  },
  {
    name: "that has a variadic component that receives partial inputs",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("first_creator", new ConditionalDocumentCreator({ content: "First document" }));
      p.addComponent("second_creator", new ConditionalDocumentCreator({ content: "Second document" }));
      p.addComponent("third_creator", new ConditionalDocumentCreator({ content: "Third document" }));
      p.addComponent("documents_joiner", new DocumentJoiner());
      p.connect("first_creator.documents", "documents_joiner.documents");
      p.connect("second_creator.documents", "documents_joiner.documents");
      p.connect("third_creator.documents", "documents_joiner.documents");
      return p;
    },
    runs: [
      {
        inputs: { first_creator: { create_document: true }, third_creator: { create_document: true } },
        expectedOutputs: {
          second_creator: { noop: null },
          documents_joiner: { documents: [doc1Created, doc3Created] },
        },
        expectedComponentCalls: {
          "documents_joiner#1": { documents: [[doc1Created], [doc3Created]], top_k: undefined },
          "first_creator#1": { create_document: true },
          "second_creator#1": { create_document: false },
          "third_creator#1": { create_document: true },
        },
      },
      {
        inputs: { first_creator: { create_document: true }, second_creator: { create_document: true } },
        expectedOutputs: {
          third_creator: { noop: null },
          documents_joiner: { documents: [doc1Created, doc2Created] },
        },
        expectedComponentCalls: {
          "documents_joiner#1": { documents: [[doc1Created], [doc2Created]], top_k: undefined },
          "first_creator#1": { create_document: true },
          "second_creator#1": { create_document: true },
          "third_creator#1": { create_document: false },
        },
      },
    ],
  },
  {
    name: "that has a variadic component that receives partial inputs in a different order",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("third_creator", new ConditionalDocumentCreator({ content: "Third document" }));
      p.addComponent("first_creator", new ConditionalDocumentCreator({ content: "First document" }));
      p.addComponent("second_creator", new ConditionalDocumentCreator({ content: "Second document" }));
      p.addComponent("documents_joiner", new DocumentJoiner());
      p.connect("first_creator.documents", "documents_joiner.documents");
      p.connect("second_creator.documents", "documents_joiner.documents");
      p.connect("third_creator.documents", "documents_joiner.documents");
      return p;
    },
    runs: [
      {
        inputs: { first_creator: { create_document: true }, third_creator: { create_document: true } },
        expectedOutputs: {
          second_creator: { noop: null },
          documents_joiner: { documents: [doc1Created, doc3Created] },
        },
        expectedComponentCalls: {
          "documents_joiner#1": { documents: [[doc1Created], [doc3Created]], top_k: undefined },
          "first_creator#1": { create_document: true },
          "second_creator#1": { create_document: false },
          "third_creator#1": { create_document: true },
        },
      },
      {
        inputs: { first_creator: { create_document: true }, second_creator: { create_document: true } },
        expectedOutputs: {
          third_creator: { noop: null },
          documents_joiner: { documents: [doc1Created, doc2Created] },
        },
        expectedComponentCalls: {
          "documents_joiner#1": { documents: [[doc1Created], [doc2Created]], top_k: undefined },
          "first_creator#1": { create_document: true },
          "second_creator#1": { create_document: true },
          "third_creator#1": { create_document: false },
        },
      },
    ],
  },
  {
    name: "that has variadic component that receives a conditional input",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent(
        "conditional_router",
        new ConditionalRouter({
          routes: [
            {
              condition: "size(documents) > 1",
              output: "documents",
              outputName: "long",
              outputType: documentListSchema,
            },
            {
              condition: "size(documents) <= 1",
              output: "documents",
              outputName: "short",
              outputType: documentListSchema,
            },
          ],
        }),
      );
      p.addComponent(
        "empty_lines_cleaner",
        new DocumentCleaner({ remove_empty_lines: true, remove_extra_whitespaces: false, keep_id: true }),
      );
      p.addComponent("comma_splitter", new CommaSplitter());
      p.addComponent("document_cleaner", new DocumentCleaner({ keep_id: true }));
      p.addComponent("document_joiner", new DocumentJoiner());
      p.addComponent("noop2", new NoOp());
      p.addComponent("noop3", new NoOp());
      p.connect("noop2", "noop3");
      p.connect("noop3", "conditional_router");
      p.connect("conditional_router.long", "empty_lines_cleaner");
      p.connect("empty_lines_cleaner", "document_joiner");
      p.connect("comma_splitter", "document_cleaner");
      p.connect("document_cleaner", "document_joiner");
      p.connect("comma_splitter", "document_joiner");
      return p;
    },
    runs: [
      {
        inputs: { noop2: { documents: [document] }, comma_splitter: { documents: [document] } },
        expectedOutputs: {
          conditional_router: {
            short: [
              doc({
                id: "1000",
                content:
                  "This document has so many, sentences. Like this one, or this one. Or even this other one.",
              }),
            ],
          },
          document_joiner: { documents: expected_docs },
        },
        expectedComponentCalls: {
          "comma_splitter#1": {
            documents: [
              doc({
                id: "1000",
                content:
                  "This document has so many, sentences. Like this one, or this one. Or even this other one.",
              }),
            ],
          },
          "conditional_router#1": {
            documents: [
              doc({
                id: "1000",
                content:
                  "This document has so many, sentences. Like this one, or this one. Or even this other one.",
              }),
            ],
          },
          "document_cleaner#1": { documents: expected_docs },
          "document_joiner#1": {
            documents: [
              expected_docs,
              [
                doc({ id: "0", content: "This document has so many" }),
                doc({ id: "1", content: "sentences. Like this one" }),
                doc({ id: "2", content: "or this one. Or even this other one." }),
              ],
            ],
            top_k: undefined,
          },
          "noop2#1": { documents: [document] },
          "noop3#1": { documents: [document] },
        },
      },
      {
        inputs: {
          noop2: { documents: [document, document] },
          comma_splitter: { documents: [document, document] },
        },
        expectedOutputs: {
          document_joiner: {
            documents: [
              ...expected_docs,
              doc({ id: "3", content: "This document has so many" }),
              doc({ id: "4", content: " sentences. Like this one" }),
              doc({ id: "5", content: " or this one. Or even this other one." }),
              document,
            ],
          },
        },
        expectedComponentCalls: {
          "comma_splitter#1": { documents: [document, document] },
          "conditional_router#1": { documents: [document, document] },
          "document_cleaner#1": {
            documents: [
              ...expected_docs,
              doc({ id: "3", content: "This document has so many" }),
              doc({ id: "4", content: " sentences. Like this one" }),
              doc({ id: "5", content: " or this one. Or even this other one." }),
            ],
          },
          "document_joiner#1": {
            documents: [
              [
                ...expected_docs,
                doc({ id: "3", content: "This document has so many" }),
                doc({ id: "4", content: " sentences. Like this one" }),
                doc({ id: "5", content: " or this one. Or even this other one." }),
              ],
              [
                doc({ id: "0", content: "This document has so many" }),
                doc({ id: "1", content: "sentences. Like this one" }),
                doc({ id: "2", content: "or this one. Or even this other one." }),
                doc({ id: "3", content: "This document has so many" }),
                doc({ id: "4", content: "sentences. Like this one" }),
                doc({ id: "5", content: "or this one. Or even this other one." }),
              ],
              [document, document],
            ],
            top_k: undefined,
          },
          "empty_lines_cleaner#1": { documents: [document, document] },
          "noop2#1": { documents: [document, document] },
          "noop3#1": { documents: [document, document] },
        },
      },
    ],
  },
  {
    name: "where a single component connects multiple sockets to the same receiver socket",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("joiner", new BranchJoiner({ type: z.string() }));
      p.addComponent(
        "router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'query == "route_1"',
              output: "query",
              outputName: "route_1",
              outputType: z.string(),
            },
            {
              condition: 'query == "route_2"',
              output: "query",
              outputName: "route_2",
              outputType: z.string(),
            },
          ],
        }),
      );
      p.connect("router.route_1", "joiner.value");
      p.connect("router.route_2", "joiner.value");
      return p;
    },
    runs: [
      {
        inputs: { router: { query: "route_1" } },
        expectedOutputs: { joiner: { value: "route_1" } },
        expectedComponentCalls: { "router#1": { query: "route_1" }, "joiner#1": { value: ["route_1"] } },
      },
    ],
  },
  {
    name: "that is blocked because not enough component inputs",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent(
        "router",
        new ConditionalRouter({
          routes: [
            {
              condition: "size(streams) < 2",
              output: "query",
              outputName: "query",
              outputType: z.string(),
            },
            {
              condition: "size(streams) >= 2",
              output: "streams",
              outputName: "streams",
              outputType: z.array(z.number()),
            },
          ],
        }),
      );
      p.addComponent("payload_builder", new PayloadBuilder());
      // The router sends either `streams` or `query`, never both, so PayloadBuilder can never run.
      p.connect("router.streams", "payload_builder.streams");
      p.connect("router.query", "payload_builder.query");
      return p;
    },
    runs: [
      {
        inputs: { router: { streams: [1, 2, 3], query: "Haystack" } },
        expectedOutputs: {},
        expectedComponentCalls: { "router#1": { streams: [1, 2, 3], query: "Haystack" } },
      },
    ],
  },
];
