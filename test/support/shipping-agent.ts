import { Agent } from "@junction/agents";
import { ChatMessage, tool } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { z } from "zod";

/**
 * The agent of the durability "steps" crash test (`crash-child.ts` runs it, `crash-recovery.test.ts`
 * compares with it): the model at `baseURL` asks for `track` twice and `ship` once in one batch.
 * `log` hears each execution with its idempotency key; `beforeShip` runs first in `ship` (the child
 * hangs there to be killed mid-batch).
 */
export function shippingAgent(
  baseURL: string,
  options: { log?: (line: string) => void; beforeShip?: () => Promise<void> } = {},
) {
  const log = options.log ?? (() => {});
  const track = tool({
    name: "track",
    description: "Tracks a parcel",
    parameters: z.object({ parcel: z.string() }),
    function: ({ parcel }, context) => {
      log(`track ${parcel} ${context.idempotencyKey}`);
      return `parcel ${parcel}: in transit`;
    },
  });
  const ship = tool({
    name: "ship",
    description: "Ships a parcel",
    parameters: z.object({ parcel: z.string() }),
    function: async ({ parcel }, context) => {
      log(`ship started ${parcel} ${context.idempotencyKey}`);
      await options.beforeShip?.();
      log(`ship done ${parcel}`);
      return `parcel ${parcel}: shipped`;
    },
  });
  return new Agent({
    chatGenerator: new OpenAIChatGenerator({ model: "fake", baseURL }),
    tools: [track, ship],
  });
}

/** The request the shipping agent gets. */
export const shippingRequest = () => ({
  messages: [ChatMessage.fromUser("Ship P-3 and track P-1 and P-2.")],
});
