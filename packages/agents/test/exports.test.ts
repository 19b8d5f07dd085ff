import * as api from "@junction/agents";
import { expect, test } from "vitest";

test("@junction/agents exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "Agent",
    "AgentRunError",
    "AgentTool",
    "State",
    "StateError",
    "agentSnapshotJSONSchema",
    "agentSnapshotSchema",
    "agentToolType",
    "defaultMaxAgentDepth",
    "hookPoints",
    "mergeById",
    "mergeLists",
    "planToolCalls",
    "replaceValues",
    "stateAccessOf",
  ]);
});
