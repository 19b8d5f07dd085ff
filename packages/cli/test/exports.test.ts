import * as api from "@junction/cli";
import { expect, test } from "vitest";

test("@junction/cli exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual(["main"]);
});
