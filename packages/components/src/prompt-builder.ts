import { defineComponent } from "@junction/core";
import { z } from "zod";
import { PromptRenderError } from "./errors.js";
import {
  requiredVariablesParam,
  TemplateCache,
  templateErrorText,
  variableProblems,
  variableSockets,
  variablesParam,
  warnIfAllOptional,
} from "./prompt/builder-params.js";
import { createSandboxedLiquid, type ParsedTemplate, renderTemplate } from "./prompt/liquid-sandbox.js";
import { templateScope } from "./prompt/template-scope.js";

const liquid = createSandboxedLiquid();
const templates = new TemplateCache(liquid);

const paramsSchema = z
  .object({
    /** The Liquid template, e.g. `"Answer {{ question }} using {{ documents | map: 'content' | join: ', ' }}"`. */
    template: z.string(),
    /** Which variables are mandatory inputs (`"*"`, the default: all). */
    requiredVariables: requiredVariablesParam,
    /** The variables to expose as inputs instead of the ones the template uses. */
    variables: variablesParam,
  })
  .superRefine((params, context) => {
    let parsed: ParsedTemplate;
    try {
      parsed = templates.get(params.template);
    } catch (error) {
      context.addIssue({
        code: "custom",
        path: ["template"],
        message: `the template does not parse: ${templateErrorText(error)}`,
      });
      return;
    }
    for (const message of variableProblems(params.variables ?? parsed.variables, params.requiredVariables)) {
      context.addIssue({ code: "custom", path: ["variables"], message });
    }
  });

/**
 * Renders a prompt string from a Liquid template.
 *
 * The template's variables become input sockets — mandatory unless `requiredVariables` says otherwise
 * (optional ones default to `""`). Two more optional inputs override per run: `template` (another
 * template) and `template_variables` (values that win over the socket values).
 *
 * Templates run sandboxed: they read own properties of plain-data copies of the inputs only (a
 * `ChatMessage` as `{ role, text, ... }`), cannot include files, and are bounded in size, time and
 * memory. Lists and maps print as JSON.
 *
 * @example
 * ```ts
 * const builder = new PromptBuilder({ template: "Translate to {{ language }}: {{ text }}" });
 * await builder.run({ language: "French", text: "Hello" }); // { prompt: "Translate to French: Hello" }
 * ```
 */
export const PromptBuilder = defineComponent({
  type: "junction.PromptBuilder",
  description: "Renders a prompt string from a Liquid template and its variables.",
  params: paramsSchema,
  setup: (params) => {
    const template = templates.get(params.template);
    warnIfAllOptional("PromptBuilder", params.variables ?? template.variables, params.requiredVariables);
    return { template };
  },
  inputs: (params): Record<string, z.ZodType> => ({
    ...variableSockets(
      params.variables ?? templates.get(params.template).variables,
      params.requiredVariables,
    ),
    template: z.string().optional(),
    template_variables: z.record(z.string(), z.any()).optional(),
  }),
  outputs: { prompt: z.string() },
  run: (inputs, { resources, componentName }) => {
    const { template, template_variables, ...variables } = inputs as Record<string, unknown> & {
      template?: string | undefined;
      template_variables?: Record<string, unknown> | undefined;
    };
    const who = `PromptBuilder${componentName === undefined ? "" : ` "${componentName}"`}`;
    const fields = { componentName, componentType: "junction.PromptBuilder" };
    let parsed = resources.template;
    if (template !== undefined) {
      try {
        parsed = templates.get(template);
      } catch (error) {
        throw new PromptRenderError(
          `${who}: the runtime template does not parse: ${templateErrorText(error)}`,
          {
            ...fields,
            socket: "template",
            cause: error,
          },
        );
      }
    }
    try {
      const { scope } = templateScope({ ...variables, ...template_variables });
      return { prompt: renderTemplate(liquid, parsed, scope) };
    } catch (error) {
      throw new PromptRenderError(`${who}: rendering the template failed: ${templateErrorText(error)}`, {
        ...fields,
        cause: error,
      });
    }
  },
});
