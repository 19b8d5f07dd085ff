/**
 * A program of "a separate project": it imports only the published entry points of the packed
 * packages (no workspace links, no source condition), builds an agent pipeline routed on
 * `exit_reason`, runs it, saves it to JSON, loads it back and runs the copy. `.ci/pack-check`
 * type-checks it (strict, NodeNext) and runs it.
 */
import { Agent } from "@junction/agents";
import { ConditionalRouter } from "@junction/components";
import { Pipeline } from "@junction/core";
import { ChatMessage, chatMessageSchema, ScriptedChatGenerator } from "@junction/llm";
import { z } from "zod";

const agent = new Agent({
  chatGenerator: new ScriptedChatGenerator({ script: ["The answer is 42."], onScriptEnd: "loop" }),
  exitConditions: ["text"],
  stateSchema: { notes: { type: z.array(z.string()) } },
});
const router = new ConditionalRouter({
  routes: [
    {
      condition: 'exit_reason == "text"',
      output: "last_message",
      outputName: "answer",
      outputType: chatMessageSchema,
    },
    { condition: "true", output: "exit_reason", outputName: "gave_up", outputType: z.string() },
  ],
  variableTypes: { exit_reason: z.string(), last_message: chatMessageSchema },
});

const pipeline = Pipeline.builder()
  .add("agent", agent)
  .add("router", router)
  .connect("agent.exit_reason", "router.exit_reason")
  .connect("agent.last_message", "router.last_message")
  .build();

const outputs = await pipeline.run({ agent: { messages: [ChatMessage.fromUser("What is the answer?")] } });
const answer: ChatMessage | undefined = outputs.router?.answer;
if (answer?.text !== "The answer is 42.") throw new Error(`unexpected answer: ${JSON.stringify(outputs)}`);

const document = JSON.parse(JSON.stringify(pipeline.toJSON())) as unknown;
const loaded = Pipeline.fromJSON(document);
const again = await loaded.run({ agent: { messages: [ChatMessage.fromUser("Again?")] } });
const copied = again.router?.answer;
if (!(copied instanceof ChatMessage) || copied.text !== "The answer is 42.") {
  throw new Error(`the loaded pipeline answered differently: ${JSON.stringify(again)}`);
}
console.log(
  `consumer ok: ${answer.text} (saved and loaded: ${Object.keys(loaded.toJSON().components).join(", ")})`,
);
