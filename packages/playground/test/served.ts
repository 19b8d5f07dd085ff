import search from "../../../examples/serve/search.js";
import { agentPipeline, loopPipeline, promptPipeline, refundPipeline } from "./fixtures.js";

/** What the browser test serves with `junction dev packages/playground/test/served.ts`. */
export default {
  agent: agentPipeline(),
  loop: loopPipeline(),
  refunds: refundPipeline(),
  prompt: promptPipeline(),
  search,
};
