import * as api from "@junction/core";
import { expect, test } from "vitest";

test("@junction/core exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "ComponentError",
    "DeserializationError",
    "InMemoryTracer",
    "JunctionError",
    "MemoryLogger",
    "PipelineComponentsBlockedError",
    "PipelineConnectError",
    "PipelineMaxComponentRuns",
    "PipelineRuntimeError",
    "PipelineValidationError",
    "RecordedSpan",
    "Secret",
    "SerializationError",
    "checkCompatibility",
    "consoleLogger",
    "createRegistry",
    "defaultRegistry",
    "defineComponent",
    "defineNamedType",
    "getDefaultLogger",
    "getNamedType",
    "greedyVariadic",
    "invokeComponent",
    "isComponent",
    "isOptionalSchema",
    "namedTypeName",
    "namedTypeNames",
    "noopTracer",
    "secretSchema",
    "setDefaultLogger",
    "silentLogger",
    "variadic",
  ]);
});
