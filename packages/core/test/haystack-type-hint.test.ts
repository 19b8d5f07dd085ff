import { createRegistry, defineComponent, Pipeline } from "@junction/core";
import { expect, test } from "vitest";
import { z } from "zod";

const Greeter = defineComponent({
  type: "junction.Greeter",
  inputs: { name: z.string() },
  outputs: { greeting: z.string() },
  run: ({ name }) => ({ greeting: `Hello ${name}` }),
});

function load(type: string, registry = createRegistry()) {
  return () =>
    Pipeline.fromJSON(
      { version: 1, components: { greeter: { type, init_parameters: {} } }, connections: [] },
      { registry },
    );
}

test("a Haystack type path is answered with the Junction type to write", () => {
  const registry = createRegistry().register(Greeter);
  expect(load("haystack.components.greeters.Greeter", registry)).toThrow(
    /This is a Haystack type path; Junction's component is "junction.Greeter"/,
  );
  expect(load("haystack_integrations.components.retrievers.pgvector.PgvectorEmbeddingRetriever")).toThrow(
    /Junction names its components "junction.<ClassName>" \("junction.PgvectorEmbeddingRetriever" once the package that defines it is imported/,
  );
});

test("other unknown types get no Haystack hint", () => {
  expect(load("my.Greeter")).toThrow(/unknown component type "my.Greeter"\. Only registered types/);
});
