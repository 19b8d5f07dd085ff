/**
 * The routers, joiners, adapters and prompt builders the scenarios use: the real ones from
 * `@junction/components`. Route conditions and adapter expressions are CEL; templates are Liquid,
 * translated from the reference's Jinja where the two differ (see FAILURES.md, "Port decisions").
 */
export {
  BranchJoiner,
  ChatPromptBuilder,
  ConditionalRouter,
  OutputAdapter,
  PromptBuilder,
  StringJoiner,
} from "@junction/components";
