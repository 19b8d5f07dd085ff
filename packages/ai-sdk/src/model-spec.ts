import type { DeserializeContext, Issue, SerializeContext } from "@junction/core";

/** What a saved AI SDK model is: the registered name of the function that made it, and the model id. */
export interface ModelSpecJSON {
  readonly factory: string;
  readonly modelId: string;
}

/**
 * Writes a model as `{ factory, modelId }` (the factory by its registered name): a saved pipeline holds
 * no code and no credentials.
 *
 * @param modelFactory - the registered function that made the model
 * @param modelId - the model's id
 * @param context - the serialization context (names the function, or reports it as unregistered)
 */
export function modelSpecToJSON(
  modelFactory: (...args: any[]) => unknown,
  modelId: string,
  context: SerializeContext,
): ModelSpecJSON {
  return { factory: context.functionName(modelFactory, ["model", "factory"]), modelId };
}

/**
 * Reads `out.model` (the `{ factory, modelId }` {@link modelSpecToJSON} wrote) back into `out.model` and
 * `out.modelFactory` by calling the registered factory with the id. Every problem — a bad shape, an
 * unregistered factory, a factory that throws or returns something else than a `kind` model — is an
 * issue with its path, and leaves `model` out.
 *
 * @param out - the init parameters being read; `model` is replaced
 * @param context - the deserialization context
 * @param expected - what the factory must return: a name for messages ("language", "embedding") and a check
 */
export function readModelSpec(
  out: Record<string, unknown>,
  context: DeserializeContext,
  expected: { readonly kind: string; readonly isModel: (value: unknown) => boolean },
): void {
  const issue = (path: readonly (string | number)[], message: string) =>
    context.issues.push({ path: [...context.path, ...path], message } satisfies Issue);
  const spec = out.model as { factory?: unknown; modelId?: unknown } | undefined;
  delete out.model;
  if (typeof spec !== "object" || spec === null || typeof spec.modelId !== "string") {
    issue(["model"], 'must be { "factory": "<registered function name>", "modelId": "<model id>" }.');
    return;
  }
  const factory = context.resolveFunction(spec.factory, ["model", "factory"]) as
    | ((modelId: string) => unknown)
    | undefined;
  if (factory === undefined) return;
  let model: unknown;
  try {
    model = factory(spec.modelId);
  } catch (error) {
    issue(
      ["model"],
      `the model factory "${String(spec.factory)}" failed for "${spec.modelId}": ${error instanceof Error ? error.message : String(error)}`,
    );
    return;
  }
  if (!expected.isModel(model)) {
    issue(
      ["model", "factory"],
      `the function "${String(spec.factory)}" did not return an AI SDK ${expected.kind} model (specification "v2", "v3" or "v4") for "${spec.modelId}".`,
    );
    return;
  }
  out.model = model;
  out.modelFactory = factory;
}
