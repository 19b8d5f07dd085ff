import * as api from "@junction/serve";
import { expect, test } from "vitest";

test("@junction/serve exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "HttpError",
    "createApp",
    "describeRun",
    "listRuns",
    "loopbackHosts",
    "preparePipeline",
    "readDecisions",
    "resumeServed",
    "runServed",
    "serve",
    "serveMcpStdio",
    "streamServed",
    "stringifyWire",
  ]);
});
