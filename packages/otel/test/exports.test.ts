import * as api from "@junction/otel";
import { expect, test } from "vitest";

test("@junction/otel exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual(["CAPTURE_CONTENT_ENV", "GEN_AI", "OpenTelemetryTracer"]);
});
