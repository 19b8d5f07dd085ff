import { z } from "zod";
import {
  BranchJoiner,
  ChatPromptBuilder,
  ConditionalRouter,
  OutputAdapter,
  PromptBuilder,
} from "./components/builtins.js";
import { assistant, type ChatMessage, chatMessageListSchema, user } from "./components/chat-message.js";
import { defineTestComponent } from "./components/define.js";
import { answer, doc, documentListSchema } from "./components/document.js";
import { AnswerBuilder, FixedGenerator } from "./components/fakes.js";
import type { Scenario } from "./harness.js";

/** Agent-like pipelines: a ReAct loop, an agent that calls a RAG sub-pipeline, an agent with a feedback cycle. */

const question = "which tower is taller: eiffel tower or tower of pisa?";
const react_message_template =
  "\n    Solve a question answering task with interleaving Thought, Action, Observation steps.\n\n    Thought reasons about the current situation\n\n    Action can be:\n    google_search - Searches Google for the exact concept/entity (given in square brackets) and returns the results for you to use\n    finish - Returns the final answer (given in square brackets) and finishes the task\n\n    Observation summarizes the Action outcome and helps in formulating the next\n    Thought in Thought, Action, Observation interleaving triplet of steps.\n\n    After each Observation, provide the next Thought and next Action.\n    Don't execute multiple steps even though you know the answer.\n    Only generate Thought and Action, never Observation, you'll get Observation from Action.\n    Follow the pattern in the example below.\n\n    Example:\n    ###########################\n    Question: Which magazine was started first Arthur’s Magazine or First for Women?\n    Thought: I need to search Arthur’s Magazine and First for Women, and find which was started\n    first.\n    Action: google_search[When was 'Arthur’s Magazine' started?]\n    Observation: Arthur’s Magazine was an American literary periodical ˘\n    published in Philadelphia and founded in 1844. Edited by Timothy Shay Arthur, it featured work by\n    Edgar A. Poe, J.H. Ingraham, Sarah Josepha Hale, Thomas G. Spear, and others. In May 1846\n    it was merged into Godey’s Lady’s Book.\n    Thought: Arthur’s Magazine was started in 1844. I need to search First for Women founding date next\n    Action: google_search[When was 'First for Women' magazine started?]\n    Observation: First for Women is a woman’s magazine published by Bauer Media Group in the\n    USA. The magazine was started in 1989. It is based in Englewood Cliffs, New Jersey. In 2011\n    the circulation of the magazine was 1,310,696 copies.\n    Thought: First for Women was started in 1989. 1844 (Arthur’s Magazine) ¡ 1989 (First for\n    Women), so Arthur’s Magazine was started first.\n    Action: finish[Arthur’s Magazine]\n    ############################\n\n    Let's start, the question is: {{query}}\n\n    Thought:\n    ";
const search_message_template =
  "\n    Given these web search results:\n\n    {% for doc in documents %}\n        {{ doc.content }}\n    {% endfor %}\n\n    Be as brief as possible, max one sentence.\n    Answer the question: {{search_query}}\n    ";
const agent_prompt_template =
  '\nYour task is to answer the user\'s question.\nYou can use a RAG system to find information.\nUse the RAG system until you have sufficient information to answer the question.\nTo use the RAG system, output "search:" followed by your question.\nOnce you have an answer, output "answer:" followed by your answer.\n\nHere is the question: {{query}}\n    ';
const rag_prompt_template =
  "\nAnswer the question based on the provided documents.\nQuestion: {{ query }}\nDocuments:\n{% for document in documents %}\n{{ document.content }}\n{% endfor %}\n    ";
const query = "Does this run reliably?";
const code_prompt_template =
  "\nGenerate code to solve the task: {{ task }}\n\nYou can edit files by returning:\nEdit: file_name\n\nOnce you solved the task, respond with:\nTask finished!\n\n{% if feedback != empty %}\nHere is your initial attempt and some feedback:\n{{ feedback }}\n{% endif %}\n    ";
const feedback_prompt_template =
  '\n{% if task_finished %}\nCheck if this code is valid and can run: {{ code }}\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n{% endif %}\n    ';
const task = "Generate code to generate christmas ascii-art";
const reactPromptFilled = react_message_template.replace("{{query}}", question);
const agentPromptRendered =
  '\nYour task is to answer the user\'s question.\nYou can use a RAG system to find information.\nUse the RAG system until you have sufficient information to answer the question.\nTo use the RAG system, output "search:" followed by your question.\nOnce you have an answer, output "answer:" followed by your answer.\n\nHere is the question: Does this run reliably?\n    ';
const initialCodePrompt =
  "\nGenerate code to solve the task: Generate code to generate christmas ascii-art\n\nYou can edit files by returning:\nEdit: file_name\n\nOnce you solved the task, respond with:\nTask finished!\n\n\n    ";

const FakeThoughtActionOpenAIChatGenerator = defineTestComponent({
  type: "conformance.agents.FakeThoughtActionOpenAIChatGenerator",
  inputs: { messages: chatMessageListSchema, generation_kwargs: z.record(z.string(), z.any()).optional() },
  outputs: { replies: chatMessageListSchema },
  setup: () => ({ runs: 0 }),
  run: (_inputs, { resources }) => {
    if (resources.runs++ === 0) {
      return {
        replies: [
          assistant(
            "thinking\n Action: google_search[What is taller, Eiffel Tower or Leaning Tower of Pisa]\n",
          ),
        ],
      };
    }
    return { replies: [assistant("thinking\n Action: finish[Eiffel Tower]\n")] };
  },
});

const FakeConclusionOpenAIChatGenerator = defineTestComponent({
  type: "conformance.agents.FakeConclusionOpenAIChatGenerator",
  inputs: { messages: chatMessageListSchema, generation_kwargs: z.record(z.string(), z.any()).optional() },
  outputs: { replies: chatMessageListSchema },
  run: () => ({ replies: [assistant("Tower of Pisa is 55 meters tall\n")] }),
});

const FakeSerperDevWebSearch = defineTestComponent({
  type: "conformance.agents.FakeSerperDevWebSearch",
  inputs: { query: z.string() },
  outputs: { documents: documentListSchema },
  run: () => ({
    documents: [
      doc({ content: "Eiffel Tower is 300 meters tall" }),
      doc({ content: "Tower of Pisa is 55 meters tall" }),
    ],
  }),
});

const ToolExtractor = defineTestComponent({
  type: "conformance.agents.ToolExtractor",
  inputs: { messages: chatMessageListSchema },
  outputs: { output: z.array(z.string().nullable()) },
  run: ({ messages }) => {
    const lines = (messages.at(-1)?.text ?? "").trim().split("\n");
    for (const line of lines.reverse()) {
      const match = /Action:\s*(\w+)\[(.*?)\]/.exec(line);
      if (match !== null) return { output: [match[1]!, match[2]!] };
    }
    return { output: [null, null] };
  },
});

const PromptConcatenator = defineTestComponent({
  type: "conformance.agents.PromptConcatenator",
  params: z.object({ suffix: z.string().default("") }),
  inputs: { replies: chatMessageListSchema, current_prompt: chatMessageListSchema },
  outputs: { output: chatMessageListSchema },
  run: ({ replies, current_prompt }, { params }) => {
    const content = (current_prompt.at(-1)?.text ?? "") + (replies.at(-1)?.text ?? "") + params.suffix;
    return { output: [user(content)] };
  },
});

const SearchOutputAdapter = defineTestComponent({
  type: "conformance.agents.SearchOutputAdapter",
  inputs: { replies: chatMessageListSchema },
  outputs: { output: chatMessageListSchema },
  run: ({ replies }) => ({ output: [assistant(`Observation: ${replies.at(-1)?.text}\n`)] }),
});

const RagRetriever = defineTestComponent({
  type: "conformance.agents.RagRetriever",
  inputs: { query: z.string() },
  outputs: { documents: documentListSchema },
  run: () => ({
    documents: [
      doc({ content: "This is a document potentially answering the question.", meta: { access_group: 1 } }),
    ],
  }),
});

const FakeFileEditor = defineTestComponent({
  type: "conformance.agents.FakeFileEditor",
  inputs: { replies: z.array(z.string()) },
  outputs: { files: z.string() },
  run: () => ({ files: "This is the edited file content." }),
});

const search_message: ChatMessage[] = [user(search_message_template)];
const messages: ChatMessage[] = [user(react_message_template)];

export const agentScenarios: Scenario[] = [
  {
    name: "that is a simple agent",
    build: ({ pipeline }) => {
      const p = pipeline();
      p.addComponent("main_input", new BranchJoiner({ type: chatMessageListSchema }));
      p.addComponent(
        "prompt_builder",
        new ChatPromptBuilder({ variables: ["query"], requiredVariables: [] }),
      );
      p.addComponent("llm", new FakeThoughtActionOpenAIChatGenerator());
      p.addComponent("tool_extractor", new ToolExtractor());
      p.addComponent("prompt_concatenator_after_action", new PromptConcatenator());
      p.addComponent(
        "router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'tool_id_and_param[0].contains("search")',
              output: "tool_id_and_param[1]",
              outputName: "search",
              outputType: z.string(),
            },
            {
              condition: 'tool_id_and_param[0].contains("finish")',
              output: "tool_id_and_param[1]",
              outputName: "finish",
              outputType: z.string(),
            },
          ],
        }),
      );
      p.addComponent("router_search", new FakeSerperDevWebSearch());
      p.addComponent(
        "search_prompt_builder",
        new ChatPromptBuilder({ variables: ["documents", "search_query"], requiredVariables: [] }),
      );
      p.addComponent("search_llm", new FakeConclusionOpenAIChatGenerator());
      p.addComponent("search_output_adapter", new SearchOutputAdapter());
      p.addComponent(
        "prompt_concatenator_after_observation",
        new PromptConcatenator({ suffix: "\nThought: " }),
      );
      p.connect("main_input", "prompt_builder.template");
      p.connect("prompt_builder.prompt", "llm.messages");
      p.connect("llm.replies", "prompt_concatenator_after_action.replies");
      p.connect("prompt_builder.prompt", "prompt_concatenator_after_action.current_prompt");
      p.connect("prompt_concatenator_after_action", "tool_extractor.messages");
      p.connect("tool_extractor", "router");
      p.connect("router.search", "router_search.query");
      p.connect("router_search.documents", "search_prompt_builder.documents");
      p.connect("router.search", "search_prompt_builder.search_query");
      p.connect("search_prompt_builder.prompt", "search_llm.messages");
      p.connect("search_llm.replies", "search_output_adapter.replies");
      p.connect("search_output_adapter", "prompt_concatenator_after_observation.replies");
      p.connect("prompt_concatenator_after_action", "prompt_concatenator_after_observation.current_prompt");
      p.connect("prompt_concatenator_after_observation", "main_input");
      return p;
    },
    runs: [
      {
        inputs: {
          main_input: { value: messages },
          prompt_builder: { query: question },
          search_prompt_builder: { template: search_message },
        },
        expectedOutputs: { router: { finish: "Eiffel Tower" } },
        expectedComponentCalls: {
          "llm#1": {
            generation_kwargs: undefined,
            messages: [user(reactPromptFilled)],
          },
          "llm#2": {
            generation_kwargs: undefined,
            messages: [
              user(
                reactPromptFilled +
                  "thinking\n Action: google_search[What is taller, Eiffel Tower or Leaning Tower of Pisa]\nObservation: Tower of Pisa is 55 meters tall\n\n\nThought: ",
              ),
            ],
          },
          "main_input#1": {
            value: [[user(react_message_template)]],
          },
          "main_input#2": {
            value: [
              [
                user(
                  reactPromptFilled +
                    "thinking\n Action: google_search[What is taller, Eiffel Tower or Leaning Tower of Pisa]\nObservation: Tower of Pisa is 55 meters tall\n\n\nThought: ",
                ),
              ],
            ],
          },
          "prompt_builder#1": {
            query: "which tower is taller: eiffel tower or tower of pisa?",
            template: [user(react_message_template)],
            template_variables: undefined,
          },
          "prompt_builder#2": {
            query: "which tower is taller: eiffel tower or tower of pisa?",
            template: [
              user(
                reactPromptFilled +
                  "thinking\n Action: google_search[What is taller, Eiffel Tower or Leaning Tower of Pisa]\nObservation: Tower of Pisa is 55 meters tall\n\n\nThought: ",
              ),
            ],
            template_variables: undefined,
          },
          "prompt_concatenator_after_action#1": {
            current_prompt: [user(reactPromptFilled)],
            replies: [
              assistant(
                "thinking\n Action: google_search[What is taller, Eiffel Tower or Leaning Tower of Pisa]\n",
              ),
            ],
          },
          "prompt_concatenator_after_action#2": {
            current_prompt: [
              user(
                reactPromptFilled +
                  "thinking\n Action: google_search[What is taller, Eiffel Tower or Leaning Tower of Pisa]\nObservation: Tower of Pisa is 55 meters tall\n\n\nThought: ",
              ),
            ],
            replies: [assistant("thinking\n Action: finish[Eiffel Tower]\n")],
          },
          "prompt_concatenator_after_observation#1": {
            current_prompt: [
              user(
                reactPromptFilled +
                  "thinking\n Action: google_search[What is taller, Eiffel Tower or Leaning Tower of Pisa]\n",
              ),
            ],
            replies: [assistant("Observation: Tower of Pisa is 55 meters tall\n\n")],
          },
          "router#1": {
            tool_id_and_param: ["google_search", "What is taller, Eiffel Tower or Leaning Tower of Pisa"],
          },
          "router#2": { tool_id_and_param: ["finish", "Eiffel Tower"] },
          "router_search#1": { query: "What is taller, Eiffel Tower or Leaning Tower of Pisa" },
          "search_llm#1": {
            generation_kwargs: undefined,
            messages: [
              user(
                "\n    Given these web search results:\n\n    \n        Eiffel Tower is 300 meters tall\n    \n        Tower of Pisa is 55 meters tall\n    \n\n    Be as brief as possible, max one sentence.\n    Answer the question: What is taller, Eiffel Tower or Leaning Tower of Pisa\n    ",
              ),
            ],
          },
          "search_output_adapter#1": { replies: [assistant("Tower of Pisa is 55 meters tall\n")] },
          "search_prompt_builder#1": {
            documents: [
              doc({
                id: "c37eb19352b261b17314cac9e1539921b5996f88c99ad0b134f12effb38ed467",
                content: "Eiffel Tower is 300 meters tall",
              }),
              doc({
                id: "c5281056a220c32e6fa1c4ae7d3f263c0f25fd620592c5e45049a9dcb778f129",
                content: "Tower of Pisa is 55 meters tall",
              }),
            ],
            search_query: "What is taller, Eiffel Tower or Leaning Tower of Pisa",
            template: [user(search_message_template)],
            template_variables: undefined,
          },
          "tool_extractor#1": {
            messages: [
              user(
                reactPromptFilled +
                  "thinking\n Action: google_search[What is taller, Eiffel Tower or Leaning Tower of Pisa]\n",
              ),
            ],
          },
          "tool_extractor#2": {
            messages: [
              user(
                reactPromptFilled +
                  "thinking\n Action: google_search[What is taller, Eiffel Tower or Leaning Tower of Pisa]\nObservation: Tower of Pisa is 55 meters tall\n\n\nThought: thinking\n Action: finish[Eiffel Tower]\n",
              ),
            ],
          },
        },
      },
    ],
  },
  {
    name: "that is an agent that can use RAG",
    build: ({ pipeline }) => {
      const p = pipeline(2);
      p.addComponent("joiner", new BranchJoiner({ type: z.string() }));
      p.addComponent("rag_llm", new FixedGenerator({ replies: ["This is all the information I found!"] }));
      p.addComponent(
        "rag_prompt",
        new PromptBuilder({ template: rag_prompt_template, requiredVariables: [] }),
      );
      p.addComponent(
        "agent_prompt",
        new PromptBuilder({ template: agent_prompt_template, requiredVariables: [] }),
      );
      p.addComponent(
        "agent_llm",
        new FixedGenerator({ replies: ["search: Can you help me?", "answer: here is my answer"] }),
      );
      p.addComponent(
        "router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'replies[0].contains("search:")',
              output: "replies[0]",
              outputName: "search",
              outputType: z.string(),
            },
            {
              condition: 'replies[0].contains("answer:")',
              output: "replies",
              outputName: "answer",
              outputType: z.array(z.string()),
            },
          ],
        }),
      );
      p.addComponent(
        "concatenator",
        new OutputAdapter({
          expression: 'current_prompt + "\\n" + rag_answer[0]',
          outputType: z.string(),
        }),
      );
      p.addComponent("retriever", new RagRetriever());
      p.addComponent("answer_builder", new AnswerBuilder());
      p.connect("agent_prompt.prompt", "joiner.value");
      p.connect("joiner.value", "agent_llm.prompt");
      p.connect("agent_llm.replies", "router.replies");
      p.connect("router.search", "retriever.query");
      p.connect("router.answer", "answer_builder.replies");
      p.connect("retriever.documents", "rag_prompt.documents");
      p.connect("rag_prompt.prompt", "rag_llm.prompt");
      p.connect("rag_llm.replies", "concatenator.rag_answer");
      p.connect("joiner.value", "concatenator.current_prompt");
      p.connect("concatenator.output", "joiner.value");
      return p;
    },
    runs: [
      {
        inputs: {
          agent_prompt: { query: query },
          rag_prompt: { query: query },
          answer_builder: { query: query },
        },
        expectedOutputs: {
          answer_builder: {
            answers: [
              answer({
                data: "answer: here is my answer",
                query: query,
                documents: [],
                meta: { all_messages: ["answer: here is my answer"] },
              }),
            ],
          },
        },
        expectedComponentCalls: {
          "agent_llm#1": {
            prompt: agentPromptRendered,
          },
          "agent_llm#2": {
            prompt: `${agentPromptRendered}\nThis is all the information I found!`,
          },
          "agent_prompt#1": {
            query: "Does this run reliably?",
            template: undefined,
            template_variables: undefined,
          },
          "answer_builder#1": {
            documents: undefined,
            meta: undefined,
            pattern: undefined,
            query: "Does this run reliably?",
            expand_reference_ranges: undefined,
            reference_pattern: undefined,
            replies: ["answer: here is my answer"],
          },
          "concatenator#1": {
            current_prompt: agentPromptRendered,
            rag_answer: ["This is all the information I found!"],
          },
          "joiner#1": {
            value: [agentPromptRendered],
          },
          "joiner#2": {
            value: [`${agentPromptRendered}\nThis is all the information I found!`],
          },
          "rag_llm#1": {
            prompt:
              "\nAnswer the question based on the provided documents.\nQuestion: Does this run reliably?\nDocuments:\n\nThis is a document potentially answering the question.\n\n    ",
          },
          "rag_prompt#1": {
            documents: [
              doc({
                id: "366a10745500c26f1177f434c74513daacaa7f9d2e09ba892cfcd48652eb80c1",
                content: "This is a document potentially answering the question.",
                meta: { access_group: 1 },
              }),
            ],
            query: "Does this run reliably?",
            template: undefined,
            template_variables: undefined,
          },
          "retriever#1": { query: "search: Can you help me?" },
          "router#1": { replies: ["search: Can you help me?"] },
          "router#2": { replies: ["answer: here is my answer"] },
        },
      },
    ],
  },
  {
    name: "that has an agent with a feedback cycle",
    build: ({ pipeline }) => {
      const p = pipeline(8);
      p.addComponent(
        "code_prompt",
        new PromptBuilder({ template: code_prompt_template, requiredVariables: ["task"] }),
      );
      p.addComponent("joiner", new BranchJoiner({ type: z.string() }));
      p.addComponent(
        "code_llm",
        new FixedGenerator({
          replies: ["Edit: file_1.py", "Edit: file_2.py", "Edit: file_3.py", "Task finished!"],
        }),
      );
      p.addComponent(
        "tool_use_router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'replies[0].contains("Edit:")',
              output: "replies",
              outputName: "edit",
              outputType: z.array(z.string()),
            },
            {
              condition: 'replies[0].contains("Task finished!")',
              output: "replies",
              outputName: "done",
              outputType: z.array(z.string()),
            },
          ],
        }),
      );
      p.addComponent("file_editor", new FakeFileEditor());
      p.addComponent(
        "agent_concatenator",
        new OutputAdapter({
          expression: 'current_prompt + "\\n" + files',
          outputType: z.string(),
        }),
      );
      p.addComponent(
        "feedback_prompt",
        new PromptBuilder({ template: feedback_prompt_template, requiredVariables: ["task_finished"] }),
      );
      p.addComponent("feedback_llm", new FixedGenerator({ replies: ["FAIL", "PASS"] }));
      p.addComponent(
        "feedback_router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'replies[0].contains("FAIL")',
              output: 'current_prompt + "\\n" + replies[0]',
              outputName: "fail",
              outputType: z.string(),
            },
            {
              condition: 'replies[0].contains("PASS")',
              output: "replies",
              outputName: "pass",
              outputType: z.array(z.string()),
            },
          ],
        }),
      );
      p.connect("code_prompt.prompt", "joiner.value");
      p.connect("joiner.value", "code_llm.prompt");
      p.connect("code_llm.replies", "tool_use_router.replies");
      p.connect("tool_use_router.edit", "file_editor.replies");
      p.connect("file_editor.files", "agent_concatenator.files");
      p.connect("joiner.value", "agent_concatenator.current_prompt");
      p.connect("agent_concatenator.output", "joiner.value");
      p.connect("tool_use_router.done", "feedback_prompt.task_finished");
      p.connect("agent_concatenator.output", "feedback_prompt.code");
      p.connect("feedback_prompt.prompt", "feedback_llm.prompt");
      p.connect("feedback_llm.replies", "feedback_router.replies");
      p.connect("agent_concatenator.output", "feedback_router.current_prompt");
      p.connect("feedback_router.fail", "joiner.value");
      return p;
    },
    runs: [
      {
        inputs: { code_prompt: { task: task } },
        expectedOutputs: { feedback_router: { pass: ["PASS"] } },
        expectedComponentCalls: {
          "agent_concatenator#1": {
            current_prompt: initialCodePrompt,
            files: "This is the edited file content.",
          },
          "agent_concatenator#2": {
            current_prompt: `${initialCodePrompt}\nThis is the edited file content.`,
            files: "This is the edited file content.",
          },
          "agent_concatenator#3": {
            current_prompt: `${initialCodePrompt}\nThis is the edited file content.\nThis is the edited file content.`,
            files: "This is the edited file content.",
          },
          "agent_concatenator#4": {
            current_prompt:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL",
            files: "This is the edited file content.",
          },
          "agent_concatenator#5": {
            current_prompt:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.",
            files: "This is the edited file content.",
          },
          "agent_concatenator#6": {
            current_prompt:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.\nThis is the edited file content.",
            files: "This is the edited file content.",
          },
          "code_llm#1": {
            prompt: initialCodePrompt,
          },
          "code_llm#2": {
            prompt: `${initialCodePrompt}\nThis is the edited file content.`,
          },
          "code_llm#3": {
            prompt: `${initialCodePrompt}\nThis is the edited file content.\nThis is the edited file content.`,
          },
          "code_llm#4": {
            prompt:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.",
          },
          "code_llm#5": {
            prompt:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL",
          },
          "code_llm#6": {
            prompt:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.",
          },
          "code_llm#7": {
            prompt:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.\nThis is the edited file content.",
          },
          "code_llm#8": {
            prompt:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.",
          },
          "code_prompt#1": { feedback: "", task: task, template: undefined, template_variables: undefined },
          "feedback_llm#1": {
            prompt:
              "\n\nCheck if this code is valid and can run: " +
              initialCodePrompt +
              '\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n\n    ',
          },
          "feedback_llm#2": {
            prompt:
              "\n\nCheck if this code is valid and can run: " +
              initialCodePrompt +
              '\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n\n    ',
          },
          "feedback_prompt#1": {
            code:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.",
            task_finished: ["Task finished!"],
            template: undefined,
            template_variables: undefined,
          },
          "feedback_prompt#2": {
            code:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.",
            task_finished: ["Task finished!"],
            template: undefined,
            template_variables: undefined,
          },
          "feedback_router#1": {
            current_prompt:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.",
            replies: ["FAIL"],
          },
          "feedback_router#2": {
            current_prompt:
              initialCodePrompt +
              "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.",
            replies: ["PASS"],
          },
          "file_editor#1": { replies: ["Edit: file_1.py"] },
          "file_editor#2": { replies: ["Edit: file_2.py"] },
          "file_editor#3": { replies: ["Edit: file_3.py"] },
          "file_editor#4": { replies: ["Edit: file_1.py"] },
          "file_editor#5": { replies: ["Edit: file_2.py"] },
          "file_editor#6": { replies: ["Edit: file_3.py"] },
          "joiner#1": {
            value: [initialCodePrompt],
          },
          "joiner#2": {
            value: [`${initialCodePrompt}\nThis is the edited file content.`],
          },
          "joiner#3": {
            value: [
              `${initialCodePrompt}\nThis is the edited file content.\nThis is the edited file content.`,
            ],
          },
          "joiner#4": {
            value: [
              initialCodePrompt +
                "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.",
            ],
          },
          "joiner#5": {
            value: [
              initialCodePrompt +
                "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL",
            ],
          },
          "joiner#6": {
            value: [
              initialCodePrompt +
                "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.",
            ],
          },
          "joiner#7": {
            value: [
              initialCodePrompt +
                "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.\nThis is the edited file content.",
            ],
          },
          "joiner#8": {
            value: [
              initialCodePrompt +
                "\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.\nFAIL\nThis is the edited file content.\nThis is the edited file content.\nThis is the edited file content.",
            ],
          },
          "tool_use_router#1": { replies: ["Edit: file_1.py"] },
          "tool_use_router#2": { replies: ["Edit: file_2.py"] },
          "tool_use_router#3": { replies: ["Edit: file_3.py"] },
          "tool_use_router#4": { replies: ["Task finished!"] },
          "tool_use_router#5": { replies: ["Edit: file_1.py"] },
          "tool_use_router#6": { replies: ["Edit: file_2.py"] },
          "tool_use_router#7": { replies: ["Edit: file_3.py"] },
          "tool_use_router#8": { replies: ["Task finished!"] },
        },
      },
    ],
  },
];
