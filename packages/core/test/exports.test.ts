import * as api from "@junction/core";
import { expect, test } from "vitest";

test("@junction/core exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([]);
});
