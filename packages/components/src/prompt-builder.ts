import { defineComponent } from "@junction/core";
import { z } from "zod";
import {
  builderParamsSchema,
  TemplateCache,
  templateStep,
  variableSockets,
  warnIfAllOptional,
} from "./prompt/builder-params.js";
import { createSandboxedLiquid, renderTemplate } from "./prompt/liquid-sandbox.js";
import { templateScope } from "./prompt/template-scope.js";

const liquid = createSandboxedLiquid();
const templates = new TemplateCache(liquid);

const paramsSchema = builderParamsSchema(
  /** The Liquid template, e.g. `"Answer {{ question }} using {{ documents | map: 'content' | join: ', ' }}"`. */
  z.string(),
  (template) => templates.get(template).variables,
);

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
    const parsed =
      template === undefined
        ? resources.template
        : templateStep(who, fields, "parse", () => templates.get(template));
    return {
      prompt: templateStep(who, fields, "render", () =>
        renderTemplate(liquid, parsed, templateScope({ ...variables, ...template_variables }).scope),
      ),
    };
  },
});

/** A `PromptBuilder` instance (the class doubles as the instance type: `function f(x: PromptBuilder)`). */
export type PromptBuilder = InstanceType<typeof PromptBuilder>;
