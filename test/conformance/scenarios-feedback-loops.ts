import { z } from "zod";
import { BranchJoiner, ConditionalRouter, OutputAdapter, PromptBuilder } from "./components/builtins.js";
import { defineTestComponent } from "./components/define.js";
import { answer, generatedAnswerSchema } from "./components/document.js";
import { AnswerBuilder, FixedGenerator } from "./components/fakes.js";
import type { Scenario } from "./harness.js";

/** LLM-style cycles: generators retried with feedback, prompts fed from a loop, values leaving a cycle. */

const GuessingGenerator = defineTestComponent({
  type: "conformance.loops.GuessingGenerator",
  inputs: { prompt: z.string(), generation_kwargs: z.record(z.string(), z.any()).optional() },
  outputs: { replies: z.array(z.string()) },
  setup: () => ({ called: false }),
  run: (_inputs, { resources }) => {
    // Simulates a model that replies differently after its first call.
    if (resources.called) return { replies: ["Rome"] };
    resources.called = true;
    return { replies: ["Paris"] };
  },
});

const FakeOutputValidator = defineTestComponent({
  type: "conformance.loops.FakeOutputValidator",
  inputs: { replies: z.array(z.string()) },
  outputs: {
    valid_replies: z.array(z.string()),
    invalid_replies: z.array(z.string()).nullable(),
    error_message: z.string().nullable(),
  },
  setup: () => ({ called: false }),
  run: ({ replies }, { resources }) => {
    if (!resources.called) {
      resources.called = true;
      return { invalid_replies: ["This is an invalid reply"], error_message: "this is an error message" };
    }
    return { valid_replies: replies };
  },
});

const ValidReplyGenerator = defineTestComponent({
  type: "conformance.loops.ValidReplyGenerator",
  inputs: { prompt: z.string() },
  outputs: { replies: z.array(z.string()) },
  run: () => ({ replies: ["This is a valid reply"] }),
});

const NoAnswerThenAnswerGenerator = defineTestComponent({
  type: "conformance.loops.NoAnswerThenAnswerGenerator",
  inputs: { prompt: z.string() },
  outputs: { replies: z.array(z.string()) },
  setup: () => ({ firstRun: true }),
  run: (_inputs, { resources }) => {
    if (resources.firstRun) {
      resources.firstRun = false;
      return { replies: ["No answer"] };
    }
    return { replies: ["42"] };
  },
});

const PromptCleaner = defineTestComponent({
  type: "conformance.loops.PromptCleaner",
  inputs: { prompt: z.string() },
  outputs: { clean_prompt: z.string() },
  run: ({ prompt }) => ({ clean_prompt: prompt.trim() }),
});

const AnswerBuilderWithPrompt = defineTestComponent({
  type: "conformance.loops.AnswerBuilderWithPrompt",
  inputs: { replies: z.array(z.string()), query: z.string(), prompt: z.string().optional() },
  outputs: { answers: z.array(generatedAnswerSchema) },
  run: ({ replies, query, prompt }) => {
    const built = answer({ data: replies[0]!, query, documents: [], meta: { all_messages: replies } });
    if (prompt !== undefined) built.meta.prompt = prompt;
    return { answers: [built] };
  },
});

const staticContent =
  "\nYou are an experienced and accurate Turkish CX speacialist that classifies customer comments into pre-defined categories below:\n\nNegative experience labels:\n- Late delivery\n- Rotten/spoilt item\n- Bad Courier behavior\n\nPositive experience labels:\n- Good courier behavior\n- Thanks & appreciation\n- Love message to courier\n- Fast delivery\n- Quality of products\n\nCreate a JSON object as a response. The fields are: 'positive_experience', 'negative_experience'.\nAssign at least one of the pre-defined labels to the given customer comment under positive and negative experience fields.\nIf the comment has a positive experience, list the label under 'positive_experience' field.\nIf the comments has a negative_experience, list it under the 'negative_experience' field.\n";
const comment = "I loved the quality of the meal but the courier was rude";
const static_content = staticContent;
const question = "What is the answer?";
const onlyDefaultsTemplate =
  "Answer the following question.\n{% if previous_replies != empty %}\nPreviously you replied incorrectly this:\n{% for reply in previous_replies %}\n - {{ reply }}\n{% endfor %}\n{% endif %}\nQuestion: {{ query }}";
const validationTemplate =
  "Here is the comment:\n{{ comment }}\n. Just return the category names in the list. If there aren't any, return an empty list.\n\n{%- if invalid_replies != empty and error_message != empty -%}\nYou already created the following output in a previous attempt: {{ invalid_replies }}\nHowever, this doesn't comply with the format requirements from above and triggered this Python exception: {{ error_message }}\nCorrect the output and try again. Just return the corrected output without any extra explanations.\n{%- endif -%}";
const task = "Generate code to generate christmas ascii-art";
const codePromptTemplate =
  "\nGenerate code to solve the task: {{ task }}\n\n{% if feedback != empty %}\nHere is your initial attempt and some feedback:\n{{ feedback }}\n{% endif %}\n    ";
const feedbackPromptTemplate =
  '\nCheck if this code is valid and can run: {{ code[0] }}\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    ';
const valid_response =
  "\ndef generate_santa_sleigh():\n    '''\n    Returns ASCII art of Santa Claus on his sleigh with Rudolph leading the way.\n    '''\n    # implementation goes here.\n    return art\n    ";
const expected_prompt =
  "Generate code to generate christmas ascii-art\ninvalid code\nFAIL\ninvalid code\nFAIL, come on, try again.";

/** The router of the feedback-loop scenarios: `fail` carries the feedback, `pass` the code. */
function feedbackRouter() {
  return new ConditionalRouter({
    routes: [
      {
        condition: 'replies[0].contains("FAIL")',
        output: "replies[0]",
        outputName: "fail",
        outputType: z.string(),
      },
      {
        condition: 'replies[0].contains("PASS")',
        output: "code",
        outputName: "pass",
        outputType: z.array(z.string()),
      },
    ],
  });
}

/** `{{current_prompt[0] + '\n' + feedback[0]}}` of the feedback-loop scenarios. */
function feedbackConcatenator() {
  return new OutputAdapter({
    expression: 'current_prompt[0] + "\\n" + feedback.substring(0, 1)',
    outputType: z.string(),
  });
}

export const feedbackLoopScenarios: Scenario[] = [
  {
    name: "that has a component with only default inputs as first to run and receives inputs from a loop",
    build: ({ pipeline }) => {
      const p = pipeline(2);
      p.addComponent(
        "prompt_builder",
        new PromptBuilder({ template: onlyDefaultsTemplate, requiredVariables: ["query"] }),
      );
      p.addComponent("generator", new GuessingGenerator());
      // The reference declares both outputs as list[int] although they carry strings; the type plays no part.
      p.addComponent(
        "router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'replies == ["Rome"]',
              output: "replies",
              outputName: "correct_replies",
              outputType: z.array(z.string()),
            },
            {
              condition: 'replies == ["Paris"]',
              output: "replies",
              outputName: "incorrect_replies",
              outputType: z.array(z.string()),
            },
          ],
        }),
      );
      p.connect("prompt_builder.prompt", "generator.prompt");
      p.connect("generator.replies", "router.replies");
      p.connect("router.incorrect_replies", "prompt_builder.previous_replies");
      return p;
    },
    runs: [
      {
        inputs: { prompt_builder: { query: "What is the capital of Italy?" } },
        expectedOutputs: { router: { correct_replies: ["Rome"] } },
        expectedComponentCalls: {
          "generator#1": {
            generation_kwargs: undefined,
            prompt: "Answer the following question.\n\nQuestion: What is the capital of Italy?",
          },
          "generator#2": {
            generation_kwargs: undefined,
            prompt:
              "Answer the following question.\n\nPreviously you replied incorrectly this:\n\n - Paris\n\n\nQuestion: What is the capital of Italy?",
          },
          "prompt_builder#1": {
            previous_replies: "",
            query: "What is the capital of Italy?",
            template: undefined,
            template_variables: undefined,
          },
          "prompt_builder#2": {
            previous_replies: ["Paris"],
            query: "What is the capital of Italy?",
            template: undefined,
            template_variables: undefined,
          },
          "router#1": { replies: ["Paris"] },
          "router#2": { replies: ["Rome"] },
        },
      },
    ],
  },
  {
    name: "that has a loop and a component with default inputs that doesn't receive anything from its sender but receives input from user",
    build: ({ pipeline }) => {
      const p = pipeline(2);
      p.addComponent(
        "prompt_builder",
        new PromptBuilder({ template: staticContent + validationTemplate, requiredVariables: [] }),
      );
      p.addComponent("llm", new ValidReplyGenerator());
      p.addComponent("output_validator", new FakeOutputValidator());
      p.connect("prompt_builder.prompt", "llm.prompt");
      p.connect("llm.replies", "output_validator.replies");
      p.connect("output_validator.invalid_replies", "prompt_builder.invalid_replies");
      p.connect("output_validator.error_message", "prompt_builder.error_message");
      return p;
    },
    runs: [
      {
        inputs: { prompt_builder: { template_variables: { comment: comment } } },
        expectedOutputs: { output_validator: { valid_replies: ["This is a valid reply"] } },
        expectedComponentCalls: {
          "llm#1": {
            prompt:
              static_content +
              "Here is the comment:\nI loved the quality of the meal but the courier was rude\n. Just return the category names in the list. If there aren't any, return an empty list.",
          },
          "llm#2": {
            prompt:
              static_content +
              "Here is the comment:\nI loved the quality of the meal but the courier was rude\n. Just return the category names in the list. If there aren't any, return an empty list.You already created the following output in a previous attempt: [\"This is an invalid reply\"]\nHowever, this doesn't comply with the format requirements from above and triggered this Python exception: this is an error message\nCorrect the output and try again. Just return the corrected output without any extra explanations.",
          },
          "output_validator#1": { replies: ["This is a valid reply"] },
          "output_validator#2": { replies: ["This is a valid reply"] },
          "prompt_builder#1": {
            comment: "",
            error_message: "",
            invalid_replies: "",
            template: undefined,
            template_variables: { comment: "I loved the quality of the meal but the courier was rude" },
          },
          "prompt_builder#2": {
            comment: "",
            error_message: "this is an error message",
            invalid_replies: ["This is an invalid reply"],
            template: undefined,
            template_variables: { comment: "I loved the quality of the meal but the courier was rude" },
          },
        },
      },
    ],
  },
  {
    name: "that has a loop in the middle",
    build: ({ pipeline }) => {
      const p = pipeline(2);
      p.addComponent("prompt_cleaner", new PromptCleaner());
      p.addComponent(
        "prompt_builder",
        new PromptBuilder({
          template: "",
          variables: ["question", "invalid_replies"],
          requiredVariables: ["question"],
        }),
      );
      p.addComponent("llm", new NoAnswerThenAnswerGenerator());
      p.addComponent(
        "answer_validator",
        new ConditionalRouter({
          routes: [
            {
              condition: '"No answer" in replies',
              output: "replies",
              outputName: "invalid_replies",
              outputType: z.array(z.string()),
            },
            {
              condition: '!("No answer" in replies)',
              output: "replies",
              outputName: "valid_replies",
              outputType: z.array(z.string()),
            },
          ],
        }),
      );
      p.addComponent("answer_builder", new AnswerBuilder());
      p.connect("prompt_cleaner.clean_prompt", "prompt_builder.template");
      p.connect("prompt_builder.prompt", "llm.prompt");
      p.connect("llm.replies", "answer_validator.replies");
      p.connect("answer_validator.invalid_replies", "prompt_builder.invalid_replies");
      p.connect("answer_validator.valid_replies", "answer_builder.replies");
      return p;
    },
    runs: [
      {
        inputs: {
          prompt_cleaner: { prompt: "Random template" },
          prompt_builder: { question: question },
          answer_builder: { query: question },
        },
        expectedOutputs: {
          answer_builder: {
            answers: [answer({ data: "42", query: question, documents: [], meta: { all_messages: ["42"] } })],
          },
        },
        expectedComponentCalls: {
          "answer_builder#1": {
            documents: undefined,
            meta: undefined,
            pattern: undefined,
            query: "What is the answer?",
            expand_reference_ranges: undefined,
            reference_pattern: undefined,
            replies: ["42"],
          },
          "answer_validator#1": { replies: ["No answer"] },
          "answer_validator#2": { replies: ["42"] },
          "llm#1": { prompt: "Random template" },
          "llm#2": { prompt: "" },
          "prompt_builder#1": {
            invalid_replies: "",
            question: "What is the answer?",
            template: "Random template",
            template_variables: undefined,
          },
          "prompt_builder#2": {
            invalid_replies: ["No answer"],
            question: "What is the answer?",
            template: undefined,
            template_variables: undefined,
          },
          "prompt_cleaner#1": { prompt: "Random template" },
        },
      },
    ],
  },
  {
    name: "that has a feedback loop",
    build: ({ pipeline }) => {
      const p = pipeline(100);
      p.addComponent("code_llm", new FixedGenerator({ replies: ["invalid code", "valid code"] }));
      p.addComponent(
        "code_prompt",
        new PromptBuilder({ template: codePromptTemplate, requiredVariables: ["task"] }),
      );
      p.addComponent(
        "feedback_prompt",
        new PromptBuilder({ template: feedbackPromptTemplate, requiredVariables: ["code"] }),
      );
      p.addComponent("feedback_llm", new FixedGenerator({ replies: ["FAIL", "PASS"] }));
      p.addComponent("router", feedbackRouter());
      p.addComponent("concatenator", feedbackConcatenator());
      p.addComponent("answer_builder", new AnswerBuilder());
      p.connect("code_prompt.prompt", "code_llm.prompt");
      p.connect("code_llm.replies", "feedback_prompt.code");
      p.connect("feedback_llm.replies", "router.replies");
      p.connect("router.fail", "concatenator.feedback");
      p.connect("router.pass", "answer_builder.replies");
      p.connect("code_llm.replies", "router.code");
      p.connect("feedback_prompt.prompt", "feedback_llm.prompt");
      p.connect("code_llm.replies", "concatenator.current_prompt");
      p.connect("concatenator.output", "code_prompt.feedback");
      return p;
    },
    runs: [
      {
        inputs: { code_prompt: { task: task }, answer_builder: { query: task } },
        expectedOutputs: {
          answer_builder: {
            answers: [
              answer({
                data: "valid code",
                query: task,
                documents: [],
                meta: { all_messages: ["valid code"] },
              }),
            ],
          },
        },
        expectedComponentCalls: {
          "answer_builder#1": {
            documents: undefined,
            meta: undefined,
            pattern: undefined,
            query: "Generate code to generate christmas ascii-art",
            expand_reference_ranges: undefined,
            reference_pattern: undefined,
            replies: ["valid code"],
          },
          "code_llm#1": {
            prompt:
              "\nGenerate code to solve the task: Generate code to generate christmas ascii-art\n\n\n    ",
          },
          "code_llm#2": {
            prompt:
              "\nGenerate code to solve the task: Generate code to generate christmas ascii-art\n\n\nHere is your initial attempt and some feedback:\ninvalid code\nF\n\n    ",
          },
          "code_prompt#1": {
            feedback: "",
            task: "Generate code to generate christmas ascii-art",
            template: undefined,
            template_variables: undefined,
          },
          "code_prompt#2": {
            feedback: "invalid code\nF",
            task: "Generate code to generate christmas ascii-art",
            template: undefined,
            template_variables: undefined,
          },
          "concatenator#1": { current_prompt: ["invalid code"], feedback: "FAIL" },
          "feedback_llm#1": {
            prompt:
              '\nCheck if this code is valid and can run: invalid code\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    ',
          },
          "feedback_llm#2": {
            prompt:
              '\nCheck if this code is valid and can run: valid code\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    ',
          },
          "feedback_prompt#1": { code: ["invalid code"], template: undefined, template_variables: undefined },
          "feedback_prompt#2": { code: ["valid code"], template: undefined, template_variables: undefined },
          "router#1": { code: ["invalid code"], replies: ["FAIL"] },
          "router#2": { code: ["valid code"], replies: ["PASS"] },
        },
      },
    ],
  },
  {
    name: "created in a non-standard order that has a loop",
    build: ({ pipeline }) => {
      const p = pipeline(2);
      p.addComponent("concatenator", feedbackConcatenator());
      p.addComponent("code_llm", new FixedGenerator({ replies: ["invalid code", "valid code"] }));
      p.addComponent(
        "code_prompt",
        new PromptBuilder({ template: codePromptTemplate, requiredVariables: ["task"] }),
      );
      p.addComponent(
        "feedback_prompt",
        new PromptBuilder({ template: feedbackPromptTemplate, requiredVariables: ["code"] }),
      );
      p.addComponent("feedback_llm", new FixedGenerator({ replies: ["FAIL", "PASS"] }));
      p.addComponent("router", feedbackRouter());
      p.addComponent("answer_builder", new AnswerBuilder());
      p.connect("concatenator.output", "code_prompt.feedback");
      p.connect("code_prompt.prompt", "code_llm.prompt");
      p.connect("code_llm.replies", "feedback_prompt.code");
      p.connect("feedback_llm.replies", "router.replies");
      p.connect("router.fail", "concatenator.feedback");
      p.connect("feedback_prompt.prompt", "feedback_llm.prompt");
      p.connect("router.pass", "answer_builder.replies");
      p.connect("code_llm.replies", "router.code");
      p.connect("code_llm.replies", "concatenator.current_prompt");
      return p;
    },
    runs: [
      {
        inputs: { code_prompt: { task: task }, answer_builder: { query: task } },
        expectedOutputs: {
          answer_builder: {
            answers: [
              answer({
                data: "valid code",
                query: task,
                documents: [],
                meta: { all_messages: ["valid code"] },
              }),
            ],
          },
        },
        expectedComponentCalls: {
          "answer_builder#1": {
            documents: undefined,
            meta: undefined,
            pattern: undefined,
            query: "Generate code to generate christmas ascii-art",
            expand_reference_ranges: undefined,
            reference_pattern: undefined,
            replies: ["valid code"],
          },
          "code_llm#1": {
            prompt:
              "\nGenerate code to solve the task: Generate code to generate christmas ascii-art\n\n\n    ",
          },
          "code_llm#2": {
            prompt:
              "\nGenerate code to solve the task: Generate code to generate christmas ascii-art\n\n\nHere is your initial attempt and some feedback:\ninvalid code\nF\n\n    ",
          },
          "code_prompt#1": {
            feedback: "",
            task: "Generate code to generate christmas ascii-art",
            template: undefined,
            template_variables: undefined,
          },
          "code_prompt#2": {
            feedback: "invalid code\nF",
            task: "Generate code to generate christmas ascii-art",
            template: undefined,
            template_variables: undefined,
          },
          "concatenator#1": { current_prompt: ["invalid code"], feedback: "FAIL" },
          "feedback_llm#1": {
            prompt:
              '\nCheck if this code is valid and can run: invalid code\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    ',
          },
          "feedback_llm#2": {
            prompt:
              '\nCheck if this code is valid and can run: valid code\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    ',
          },
          "feedback_prompt#1": { code: ["invalid code"], template: undefined, template_variables: undefined },
          "feedback_prompt#2": { code: ["valid code"], template: undefined, template_variables: undefined },
          "router#1": { code: ["invalid code"], replies: ["FAIL"] },
          "router#2": { code: ["valid code"], replies: ["PASS"] },
        },
      },
    ],
  },
  {
    name: "that passes outputs that are consumed in cycle to outside the cycle",
    build: ({ pipeline }) => {
      const p = pipeline(3);
      p.addComponent(
        "concatenator",
        new OutputAdapter({
          expression: 'code_prompt + "\\n" + generated_code[0] + "\\n" + feedback',
          outputType: z.string(),
        }),
      );
      p.addComponent(
        "code_llm",
        new FixedGenerator({ replies: ["invalid code", "invalid code", valid_response] }),
      );
      p.addComponent("code_prompt", new PromptBuilder({ template: "{{task}}", requiredVariables: [] }));
      p.addComponent(
        "feedback_prompt",
        new PromptBuilder({ template: feedbackPromptTemplate, requiredVariables: [] }),
      );
      p.addComponent(
        "feedback_llm",
        new FixedGenerator({ replies: ["FAIL", "FAIL, come on, try again.", "PASS"] }),
      );
      p.addComponent("router", feedbackRouter());
      p.addComponent("joiner", new BranchJoiner({ type: z.string() }));
      p.addComponent("answer_builder", new AnswerBuilderWithPrompt());
      p.connect("concatenator.output", "joiner.value");
      p.connect("joiner.value", "code_prompt.task");
      p.connect("code_prompt.prompt", "code_llm.prompt");
      p.connect("code_prompt.prompt", "concatenator.code_prompt");
      p.connect("code_llm.replies", "feedback_prompt.code");
      p.connect("feedback_llm.replies", "router.replies");
      p.connect("router.fail", "concatenator.feedback");
      p.connect("feedback_prompt.prompt", "feedback_llm.prompt");
      p.connect("router.pass", "answer_builder.replies");
      p.connect("code_llm.replies", "router.code");
      p.connect("code_llm.replies", "concatenator.generated_code");
      p.connect("concatenator.output", "answer_builder.prompt");
      return p;
    },
    runs: [
      {
        inputs: { joiner: { value: task }, answer_builder: { query: task } },
        expectedOutputs: {
          answer_builder: {
            answers: [
              answer({
                data: valid_response,
                query: task,
                documents: [],
                meta: { prompt: expected_prompt, all_messages: [valid_response] },
              }),
            ],
          },
        },
        expectedComponentCalls: {
          "answer_builder#1": { prompt: expected_prompt, query: task, replies: [valid_response] },
          "code_llm#1": { prompt: task },
          "code_llm#2": { prompt: "Generate code to generate christmas ascii-art\ninvalid code\nFAIL" },
          "code_llm#3": { prompt: expected_prompt },
          "code_prompt#1": { task: task, template: undefined, template_variables: undefined },
          "code_prompt#2": {
            task: "Generate code to generate christmas ascii-art\ninvalid code\nFAIL",
            template: undefined,
            template_variables: undefined,
          },
          "code_prompt#3": { task: expected_prompt, template: undefined, template_variables: undefined },
          "concatenator#1": { code_prompt: task, feedback: "FAIL", generated_code: ["invalid code"] },
          "concatenator#2": {
            code_prompt: "Generate code to generate christmas ascii-art\ninvalid code\nFAIL",
            feedback: "FAIL, come on, try again.",
            generated_code: ["invalid code"],
          },
          "feedback_llm#1": {
            prompt:
              '\nCheck if this code is valid and can run: invalid code\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    ',
          },
          "feedback_llm#2": {
            prompt:
              '\nCheck if this code is valid and can run: invalid code\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    ',
          },
          "feedback_llm#3": {
            prompt:
              "\nCheck if this code is valid and can run: \ndef generate_santa_sleigh():\n    '''\n    Returns ASCII art of Santa Claus on his sleigh with Rudolph leading the way.\n    '''\n    # implementation goes here.\n    return art\n    \nReturn \"PASS\" if it passes and \"FAIL\" if it fails.\nProvide additional feedback on why it fails.\n    ",
          },
          "feedback_prompt#1": { code: ["invalid code"], template: undefined, template_variables: undefined },
          "feedback_prompt#2": { code: ["invalid code"], template: undefined, template_variables: undefined },
          "feedback_prompt#3": { code: [valid_response], template: undefined, template_variables: undefined },
          "joiner#1": { value: [task] },
          "joiner#2": { value: ["Generate code to generate christmas ascii-art\ninvalid code\nFAIL"] },
          "joiner#3": { value: [expected_prompt] },
          "router#1": { code: ["invalid code"], replies: ["FAIL"] },
          "router#2": { code: ["invalid code"], replies: ["FAIL, come on, try again."] },
          "router#3": { code: [valid_response], replies: ["PASS"] },
        },
      },
    ],
  },
  {
    name: "where a component in a cycle provides inputs for a component outside the cycle in one iteration and no input in another iteration",
    build: ({ pipeline }) => {
      const p = pipeline(2);
      p.addComponent("joiner", new BranchJoiner({ type: z.string() }));
      p.addComponent(
        "router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'query == "iterationiterationiterationiteration"',
              output: "query",
              outputName: "exit",
              outputType: z.string(),
            },
            {
              condition: 'query != "iterationiterationiterationiteration"',
              output: "query",
              outputName: "continue",
              outputType: z.string(),
            },
          ],
        }),
      );
      p.addComponent(
        "builder",
        new PromptBuilder({ template: "{{ query | append: query }}", requiredVariables: [] }),
      );
      p.addComponent(
        "outside_builder",
        new PromptBuilder({
          template: "{{ cycle_output | append: delayed_input }}",
          requiredVariables: ["cycle_output", "delayed_input"],
        }),
      );
      p.addComponent(
        "outside_router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'query == "iterationiteration"',
              output: "query",
              outputName: "cycle_output",
              outputType: z.string(),
            },
            {
              condition: 'query != "iterationiteration"',
              output: "query",
              outputName: "no_output",
              outputType: z.string(),
            },
          ],
        }),
      );
      p.connect("joiner.value", "builder.query");
      p.connect("builder.prompt", "router.query");
      p.connect("router.continue", "joiner.value");
      p.connect("builder.prompt", "outside_router.query");
      p.connect("outside_router.cycle_output", "outside_builder.cycle_output");
      p.connect("router.exit", "outside_builder.delayed_input");
      return p;
    },
    runs: [
      {
        inputs: { joiner: { value: "iteration" } },
        expectedOutputs: {
          outside_builder: { prompt: "iterationiterationiterationiterationiterationiteration" },
          outside_router: { no_output: "iterationiterationiterationiteration" },
        },
        expectedComponentCalls: {
          "joiner#1": { value: ["iteration"] },
          "builder#1": { query: "iteration", template: undefined, template_variables: undefined },
          "router#1": { query: "iterationiteration" },
          "outside_router#1": { query: "iterationiteration" },
          "joiner#2": { value: ["iterationiteration"] },
          "builder#2": { query: "iterationiteration", template: undefined, template_variables: undefined },
          "router#2": { query: "iterationiterationiterationiteration" },
          "outside_router#2": { query: "iterationiterationiterationiteration" },
          "outside_builder#1": {
            cycle_output: "iterationiteration",
            template: undefined,
            template_variables: undefined,
            delayed_input: "iterationiterationiterationiteration",
          },
        },
      },
    ],
  },
];
