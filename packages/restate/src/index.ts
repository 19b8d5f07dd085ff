export { DefinitionChangedError } from "./errors.js";
export { definitionFingerprint } from "./fingerprint.js";
export type { JunctionWorkflowOptions, RunStatus, WorkflowRunOptions } from "./junction-workflow.js";
export { junctionWorkflow } from "./junction-workflow.js";
export type { RestateDurableOptions } from "./restate-durable.js";
export { restateDurable } from "./restate-durable.js";
export { decodeRunInputs } from "./run-inputs.js";
export type { JunctionEndpoint, ServeJunctionOptions } from "./serve.js";
export { serveJunction } from "./serve.js";
