import { getDefaultLogger } from "@junction/core";
import type { Liquid } from "liquidjs";
import { z } from "zod";
import { PromptRenderError } from "../errors.js";
import { quoteList } from "../format.js";
import { type ParsedTemplate, parseTemplate } from "./liquid-sandbox.js";

/** Params and sockets shared by `PromptBuilder` and `ChatPromptBuilder`. */

/**
 * Which variables are mandatory inputs: `"*"` (the default) all of them, a list those listed, `null`
 * none (the others default to `""`).
 */
export const requiredVariablesParam = z.union([z.literal("*"), z.array(z.string()), z.null()]).default("*");

/** The variables to expose as inputs instead of the ones found in the template. */
export const variablesParam = z.array(z.string()).optional();

/** Socket names a template variable cannot take. */
export const reservedSocketNames = new Set(["template", "template_variables"]);

/**
 * The variable sockets: mandatory when required, otherwise defaulting to `""` (as the reference does).
 *
 * @param variables - the template's (or the configured) variables
 * @param required - `requiredVariables`
 */
export function variableSockets(
  variables: readonly string[],
  required: "*" | readonly string[] | null,
): Record<string, z.ZodType> {
  const sockets: Record<string, z.ZodType> = {};
  const names = required === "*" || required === null ? variables : [...new Set([...variables, ...required])];
  for (const name of names) {
    if (reservedSocketNames.has(name)) continue;
    const mandatory = required === "*" || required?.includes(name) === true;
    sockets[name] = mandatory ? z.any() : z.any().default("");
  }
  return sockets;
}

/** Problems of the variable configuration (reserved names), for the params' `superRefine`. */
export function variableProblems(
  variables: readonly string[],
  required: "*" | readonly string[] | null,
): string[] {
  const names = [...variables, ...(Array.isArray(required) ? required : [])];
  const reserved = [...new Set(names.filter((name) => reservedSocketNames.has(name)))];
  return reserved.length === 0
    ? []
    : [
        `the variable names ${quoteList(reserved)} are reserved for the runtime overrides; rename them in the template (e.g. "${reserved[0]}_text").`,
      ];
}

/** Warns, as the reference does, when every variable was made optional explicitly. */
export function warnIfAllOptional(builder: string, variables: readonly string[], required: unknown): void {
  if (required === null && variables.length > 0) {
    getDefaultLogger().warn(
      `${builder} has ${variables.length} prompt variables and requiredVariables is null, so all of them are optional. In pipelines with branches this can render a prompt before its inputs arrived; set requiredVariables to null only on purpose.`,
      { variables },
    );
  }
}

/** Parses templates given at run time, remembering the last few. */
export class TemplateCache {
  readonly #liquid: Liquid;
  readonly #entries = new Map<string, ParsedTemplate>();

  /** @param liquid - the engine to parse with */
  constructor(liquid: Liquid) {
    this.#liquid = liquid;
  }

  /** The parsed template for `source` (parse errors propagate). */
  get(source: string): ParsedTemplate {
    let parsed = this.#entries.get(source);
    if (parsed === undefined) {
      parsed = parseTemplate(this.#liquid, source);
      if (this.#entries.size >= 64) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
      this.#entries.set(source, parsed);
    }
    return parsed;
  }
}

/** The message of a template error. */
export function templateErrorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The params schema both builders share: `template` (its own schema), `requiredVariables` and
 * `variables`, checked against the variables the template uses.
 *
 * @param template - the schema of the `template` param
 * @param variablesOf - parses a template and returns its variables (throws when it does not parse)
 */
export function builderParamsSchema<TTemplate extends z.ZodType>(
  template: TTemplate,
  variablesOf: (template: Exclude<z.output<TTemplate>, undefined>) => readonly string[],
) {
  return z
    .object({
      /** The template (a Liquid string, or for chat a list of messages). */
      template,
      /** Which variables are mandatory inputs (`"*"`, the default: all). */
      requiredVariables: requiredVariablesParam,
      /** The variables to expose as inputs instead of the ones the template uses. */
      variables: variablesParam,
    })
    .superRefine((params, context) => {
      const source = (params as { template?: z.output<TTemplate> }).template;
      if (source === undefined) return;
      let variables: readonly string[];
      try {
        variables = variablesOf(source as Exclude<z.output<TTemplate>, undefined>);
      } catch (error) {
        context.addIssue({
          code: "custom",
          path: ["template"],
          message: `the template does not parse: ${templateErrorText(error)}`,
        });
        return;
      }
      for (const message of variableProblems(params.variables ?? variables, params.requiredVariables)) {
        context.addIssue({ code: "custom", path: ["variables"], message });
      }
    });
}

/**
 * Runs one step of rendering, turning a failure into a `PromptRenderError` that names the builder and
 * says whether the runtime template did not parse or rendering failed.
 *
 * @param who - e.g. `PromptBuilder "prompt"`
 * @param fields - the component's name and type for the error
 * @param step - `"parse"` (a runtime template) or `"render"`
 * @param run - the step
 */
export function templateStep<T>(
  who: string,
  fields: { readonly componentName: string | undefined; readonly componentType: string },
  step: "parse" | "render",
  run: () => T,
): T {
  try {
    return run();
  } catch (error) {
    throw new PromptRenderError(
      step === "parse"
        ? `${who}: the runtime template does not parse: ${templateErrorText(error)}`
        : `${who}: rendering the template failed: ${templateErrorText(error)}`,
      { ...fields, ...(step === "parse" ? { socket: "template" } : {}), cause: error },
    );
  }
}
