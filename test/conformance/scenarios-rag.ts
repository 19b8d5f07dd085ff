import { z } from "zod";
import { BranchJoiner, PromptBuilder, StringJoiner } from "./components/builtins.js";
import { defineTestComponent } from "./components/define.js";
import { answer, doc, documentListSchema } from "./components/document.js";
import { AnswerBuilder, AnswerJoiner, DocumentJoiner, ReplayRetriever } from "./components/fakes.js";
import { anyOrder, type Scenario } from "./harness.js";

/** Retrieval-style pipelines: components whose inputs are all optional, joiners of documents, answers, strings. */

const simpleDocument = doc({ content: "This is a simple document", score: 0.7192051811294521 });
const parisDocument = doc({ content: "Paris is the capital of France", score: 1.7780417596697045 });
const romeDocument = doc({ content: "Rome is the capital of Italy", score: 1.3448247718197388 });

const ParisGenerator = defineTestComponent({
  type: "conformance.rag.ParisGenerator",
  inputs: { prompt: z.string() },
  outputs: { replies: z.array(z.string()) },
  run: () => ({ replies: ["Paris"] }),
});

// Named `doc` in the reference.
const aDocument = doc({ content: "This is a document" });

const FakeRetriever = defineTestComponent({
  type: "conformance.rag.FakeRetriever",
  inputs: {
    query: z.string(),
    filters: z.record(z.string(), z.any()).optional(),
    top_k: z.number().optional(),
  },
  outputs: { documents: documentListSchema },
  run: () => ({ documents: [aDocument] }),
});

const FakeRanker = defineTestComponent({
  type: "conformance.rag.FakeRanker",
  inputs: { query: z.string(), documents: documentListSchema, top_k: z.number().optional() },
  outputs: { documents: documentListSchema },
  run: ({ documents }) => ({ documents }),
});

const FakeGenerator = defineTestComponent({
  type: "conformance.rag.FakeGenerator",
  inputs: { prompt: z.string(), generation_kwargs: z.record(z.string(), z.any()).optional() },
  outputs: { replies: z.array(z.string()), meta: z.record(z.string(), z.any()) },
  run: () => ({ replies: ["This is a reply"], meta: { meta_key: "meta_value" } }),
});

const QueryMetadataExtractor = defineTestComponent({
  type: "conformance.rag.QueryMetadataExtractor",
  inputs: { prompt: z.string() },
  outputs: { filters: z.record(z.string(), z.any()) },
  run: ({ prompt }) => {
    const metadata = JSON.parse(prompt) as Record<string, unknown>;
    const conditions = Object.entries(metadata).map(([key, value]) => ({
      field: `meta.${key}`,
      operator: "==",
      value,
    }));
    return { filters: { operator: "AND", conditions } };
  },
});

const alzheimerDocument = doc({
  content: "some text about investigation and treatment of Alzheimer disease",
  meta: { year: 2023, disease: "Alzheimer", author: "John Bread" },
  id: "doc2",
  score: 4.148111588215998,
});

const query = "What's Natural Language Processing?";
const reply1 = "This is a test answer";
const reply2 = "This is a second test answer";
const string_1 = "What's Natural Language Processing?";
const string_2 = "What's is life?";

export const ragScenarios: Scenario[] = [
  {
    name: "that has a greedy and variadic component after a component with default input",
    portNotes: "InMemoryBM25Retriever replays the document and score the reference's retriever returned.",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("retriever", new ReplayRetriever({ documents: [simpleDocument] }));
      p.addComponent(
        "prompt_builder",
        new PromptBuilder({
          template:
            "Given this documents: {{ documents | map: 'content' | join: ', ' }} Answer this question: {{ query }}",
          requiredVariables: [],
        }),
      );
      p.addComponent("branch_joiner", new BranchJoiner({ type: documentListSchema }));
      p.connect("retriever", "branch_joiner");
      p.connect("branch_joiner", "prompt_builder.documents");
      return p;
    },
    runs: [
      {
        inputs: { query: "This is my question" },
        expectedOutputs: {
          prompt_builder: {
            prompt:
              "Given this documents: This is a simple document Answer this question: This is my question",
          },
        },
        expectedComponentCalls: {
          "branch_joiner#1": {
            value: [
              [
                doc({
                  id: "328f0cbb6722c5cfa290aa2b78bcda8dc5afa09f0e2c23092afc502ba89c85e7",
                  content: "This is a simple document",
                  score: 0.7192051811294521,
                }),
              ],
            ],
          },
          "prompt_builder#1": {
            documents: [
              doc({
                id: "328f0cbb6722c5cfa290aa2b78bcda8dc5afa09f0e2c23092afc502ba89c85e7",
                content: "This is a simple document",
                score: 0.7192051811294521,
              }),
            ],
            query: "This is my question",
            template: undefined,
            template_variables: undefined,
          },
          "retriever#1": {
            filters: undefined,
            query: "This is my question",
            scale_score: undefined,
            top_k: undefined,
          },
        },
      },
    ],
  },
  {
    name: "that has a component with only default inputs",
    portNotes: "InMemoryBM25Retriever replays the documents and scores the reference's retriever returned.",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("retriever", new ReplayRetriever({ documents: [parisDocument, romeDocument] }));
      p.addComponent(
        "prompt_builder",
        new PromptBuilder({
          template:
            "Given the following information, answer the question.\nContext:\n{% for document in documents %}    {{ document.content }}\n{% endfor %}Question: {{ query }}",
          requiredVariables: [],
        }),
      );
      p.addComponent("generator", new ParisGenerator());
      p.addComponent("answer_builder", new AnswerBuilder());
      p.connect("retriever", "prompt_builder.documents");
      p.connect("prompt_builder.prompt", "generator.prompt");
      p.connect("generator.replies", "answer_builder.replies");
      p.connect("retriever.documents", "answer_builder.documents");
      return p;
    },
    runs: [
      {
        inputs: { query: "What is the capital of France?" },
        expectedOutputs: {
          answer_builder: {
            answers: [
              answer({
                data: "Paris",
                query: "What is the capital of France?",
                documents: [
                  doc({
                    id: "413dccdf51a54cca75b7ed2eddac04e6e58560bd2f0caf4106a3efc023fe3651",
                    content: "Paris is the capital of France",
                    score: 1.7780417596697045,
                    meta: { source_index: 1 },
                  }),
                  doc({
                    id: "a4a874fc2ef75015da7924d709fbdd2430e46a8e94add6e0f26cd32c1c03435d",
                    content: "Rome is the capital of Italy",
                    score: 1.3448247718197388,
                    meta: { source_index: 2 },
                  }),
                ],
                meta: { all_messages: ["Paris"] },
              }),
            ],
          },
        },
        expectedComponentCalls: {
          "answer_builder#1": {
            documents: [
              doc({
                id: "413dccdf51a54cca75b7ed2eddac04e6e58560bd2f0caf4106a3efc023fe3651",
                content: "Paris is the capital of France",
                score: 1.7780417596697045,
              }),
              doc({
                id: "a4a874fc2ef75015da7924d709fbdd2430e46a8e94add6e0f26cd32c1c03435d",
                content: "Rome is the capital of Italy",
                score: 1.3448247718197388,
              }),
            ],
            meta: undefined,
            pattern: undefined,
            query: "What is the capital of France?",
            expand_reference_ranges: undefined,
            reference_pattern: undefined,
            replies: ["Paris"],
          },
          "generator#1": {
            prompt:
              "Given the following information, answer the question.\nContext:\n    Paris is the capital of France\n    Rome is the capital of Italy\nQuestion: What is the capital of France?",
          },
          "prompt_builder#1": {
            documents: [
              doc({
                id: "413dccdf51a54cca75b7ed2eddac04e6e58560bd2f0caf4106a3efc023fe3651",
                content: "Paris is the capital of France",
                score: 1.7780417596697045,
              }),
              doc({
                id: "a4a874fc2ef75015da7924d709fbdd2430e46a8e94add6e0f26cd32c1c03435d",
                content: "Rome is the capital of Italy",
                score: 1.3448247718197388,
              }),
            ],
            query: "What is the capital of France?",
            template: undefined,
            template_variables: undefined,
          },
          "retriever#1": {
            filters: undefined,
            query: "What is the capital of France?",
            scale_score: undefined,
            top_k: undefined,
          },
        },
      },
    ],
  },
  {
    name: "that has multiple components with only default inputs and are added in a different order from the order of execution",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("retriever", new FakeRetriever());
      p.addComponent("ranker", new FakeRanker());
      p.addComponent(
        "prompt_builder2",
        new PromptBuilder({
          template:
            "According to these documents:\n\n{% for doc in documents -%}\n{{ doc.content }}\n{%- endfor %}\n\nAnswer the given question: {{question}}\nAnswer:",
          requiredVariables: [],
        }),
      );
      p.addComponent(
        "prompt_builder1",
        new PromptBuilder({
          template:
            "\n    You are a spellchecking system. Check the given query and fill in the corrected query.\n\n    Question: {{question}}\n    Corrected question:\n    ",
          requiredVariables: [],
        }),
      );
      p.addComponent(
        "prompt_builder3",
        new PromptBuilder({
          template: "\n    {% for ans in replies %}\n    {{ ans }}\n    {% endfor %}\n    ",
          requiredVariables: [],
        }),
      );
      p.addComponent("llm", new FakeGenerator());
      p.addComponent("spellchecker", new FakeGenerator());
      p.connect("prompt_builder1", "spellchecker");
      p.connect("spellchecker.replies", "prompt_builder3");
      p.connect("prompt_builder3", "retriever.query");
      p.connect("prompt_builder3", "ranker.query");
      p.connect("retriever.documents", "ranker.documents");
      p.connect("ranker.documents", "prompt_builder2.documents");
      p.connect("prompt_builder3", "prompt_builder2.question");
      p.connect("prompt_builder2", "llm");
      return p;
    },
    runs: [
      {
        inputs: { prompt_builder1: { question: "Wha i Acromegaly?" } },
        expectedOutputs: {
          llm: { replies: ["This is a reply"], meta: { meta_key: "meta_value" } },
          spellchecker: { meta: { meta_key: "meta_value" } },
        },
        expectedComponentCalls: {
          "llm#1": {
            generation_kwargs: undefined,
            prompt:
              "According to these documents:\n\nThis is a document\n\nAnswer the given question: \n    \n    This is a reply\n    \n    \nAnswer:",
          },
          "prompt_builder1#1": {
            question: "Wha i Acromegaly?",
            template: undefined,
            template_variables: undefined,
          },
          "prompt_builder2#1": {
            documents: [aDocument],
            question: "\n    \n    This is a reply\n    \n    ",
            template: undefined,
            template_variables: undefined,
          },
          "prompt_builder3#1": {
            replies: ["This is a reply"],
            template: undefined,
            template_variables: undefined,
          },
          "ranker#1": {
            documents: [aDocument],
            query: "\n    \n    This is a reply\n    \n    ",
            top_k: undefined,
          },
          "retriever#1": {
            filters: undefined,
            query: "\n    \n    This is a reply\n    \n    ",
            top_k: undefined,
          },
          "spellchecker#1": {
            generation_kwargs: undefined,
            prompt:
              "\n    You are a spellchecking system. Check the given query and fill in the corrected query.\n\n    Question: Wha i Acromegaly?\n    Corrected question:\n    ",
          },
        },
      },
    ],
  },
  {
    name: "that has an answer joiner variadic component",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("answer_builder_1", new AnswerBuilder());
      p.addComponent("answer_builder_2", new AnswerBuilder());
      p.addComponent("answer_joiner", new AnswerJoiner());
      p.connect("answer_builder_1.answers", "answer_joiner");
      p.connect("answer_builder_2.answers", "answer_joiner");
      return p;
    },
    runs: [
      {
        inputs: {
          answer_builder_1: { query: query, replies: [reply1] },
          answer_builder_2: { query: query, replies: [reply2] },
        },
        expectedOutputs: {
          answer_joiner: {
            answers: [
              answer({ data: reply1, query: query, documents: [], meta: { all_messages: [reply1] } }),
              answer({ data: reply2, query: query, documents: [], meta: { all_messages: [reply2] } }),
            ],
          },
        },
        expectedComponentCalls: {
          "answer_builder_1#1": {
            documents: undefined,
            meta: undefined,
            pattern: undefined,
            query: query,
            expand_reference_ranges: undefined,
            reference_pattern: undefined,
            replies: [reply1],
          },
          "answer_builder_2#1": {
            documents: undefined,
            meta: undefined,
            pattern: undefined,
            query: query,
            expand_reference_ranges: undefined,
            reference_pattern: undefined,
            replies: [reply2],
          },
          "answer_joiner#1": {
            answers: [
              [answer({ data: reply1, query: query, documents: [], meta: { all_messages: [reply1] } })],
              [answer({ data: reply2, query: query, documents: [], meta: { all_messages: [reply2] } })],
            ],
            top_k: undefined,
          },
        },
      },
    ],
  },
  {
    name: "that is linear and a component in the middle receives optional input from other components and input from the user",
    portNotes:
      "InMemoryBM25Retriever (BM25Plus) replays the document and score the reference's filtered search returned.",
    build: ({ pipeline }) => {
      const p = pipeline();
      p.addComponent(
        "builder",
        new PromptBuilder({ template: '{"disease": "Alzheimer", "year": 2023}', requiredVariables: [] }),
      );
      p.addComponent("metadata_extractor", new QueryMetadataExtractor());
      p.addComponent("retriever", new ReplayRetriever({ documents: [alzheimerDocument] }));
      p.addComponent("document_joiner", new DocumentJoiner());
      p.connect("builder.prompt", "metadata_extractor.prompt");
      p.connect("metadata_extractor.filters", "retriever.filters");
      p.connect("retriever.documents", "document_joiner.documents");
      return p;
    },
    runs: [
      {
        inputs: { retriever: { query: query } },
        expectedOutputs: {
          document_joiner: {
            documents: [
              doc({
                content: "some text about investigation and treatment of Alzheimer disease",
                meta: { year: 2023, disease: "Alzheimer", author: "John Bread" },
                id: "doc2",
                score: 4.148111588215998,
              }),
            ],
          },
        },
        expectedComponentCalls: {
          "builder#1": { template: undefined, template_variables: undefined },
          "document_joiner#1": {
            documents: [
              [
                doc({
                  id: "doc2",
                  content: "some text about investigation and treatment of Alzheimer disease",
                  meta: { year: 2023, disease: "Alzheimer", author: "John Bread" },
                  score: 4.148111588215998,
                }),
              ],
            ],
            top_k: undefined,
          },
          "metadata_extractor#1": { prompt: '{"disease": "Alzheimer", "year": 2023}' },
          "retriever#1": {
            filters: {
              conditions: [
                { field: "meta.disease", operator: "==", value: "Alzheimer" },
                { field: "meta.year", operator: "==", value: 2023 },
              ],
              operator: "AND",
            },
            query: query,
            scale_score: undefined,
            top_k: undefined,
          },
        },
      },
    ],
  },
  {
    name: "that has a string variadic component",
    build: ({ pipeline }) => {
      const p = pipeline();
      p.addComponent(
        "prompt_builder_1",
        new PromptBuilder({ template: "Builder 1: {{query}}", requiredVariables: [] }),
      );
      p.addComponent(
        "prompt_builder_2",
        new PromptBuilder({ template: "Builder 2: {{query}}", requiredVariables: [] }),
      );
      p.addComponent("string_joiner", new StringJoiner());
      p.connect("prompt_builder_1.prompt", "string_joiner.strings");
      p.connect("prompt_builder_2.prompt", "string_joiner.strings");
      return p;
    },
    runs: [
      {
        inputs: { prompt_builder_1: { query: string_1 }, prompt_builder_2: { query: string_2 } },
        expectedOutputs: {
          string_joiner: {
            strings: anyOrder([
              "Builder 1: What's Natural Language Processing?",
              "Builder 2: What's is life?",
            ]),
          },
        },
        expectedComponentCalls: {
          "prompt_builder_1#1": {
            query: "What's Natural Language Processing?",
            template: undefined,
            template_variables: undefined,
          },
          "prompt_builder_2#1": {
            query: "What's is life?",
            template: undefined,
            template_variables: undefined,
          },
          "string_joiner#1": {
            strings: anyOrder([
              "Builder 1: What's Natural Language Processing?",
              "Builder 2: What's is life?",
            ]),
          },
        },
      },
    ],
  },
];
