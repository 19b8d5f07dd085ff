import { Environment } from "@marcbachmann/cel-js";

/**
 * The one CEL environment every router and adapter shares. It registers no functions beyond CEL's
 * standard library, so an expression can only compute over the data it is given.
 *
 * - Variables are undeclared (`dyn`): the names an expression uses become the component's inputs.
 * - Mixed list/map literals are allowed (`[1, "a"]`), as JSON data is heterogeneous.
 * - Optional chaining (`msg.meta.?finish_reason.orValue("")`) is on.
 * - Parse limits bound the size of an expression (AST nodes, nesting, literal sizes).
 */
export const celEnvironment = new Environment({
  unlistedVariablesAreDyn: true,
  homogeneousAggregateLiterals: false,
  enableOptionalTypes: true,
  limits: {
    maxAstNodes: 10_000,
    maxDepth: 100,
    maxListElements: 1_000,
    maxMapEntries: 1_000,
    maxCallArguments: 32,
  },
});

/** Names the environment defines itself (`cel`, type names such as `string`), which are not inputs. */
export function isBuiltinName(name: string): boolean {
  return celEnvironment.hasVariable(name);
}
