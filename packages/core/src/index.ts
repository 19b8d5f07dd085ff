// Loads the durable-run machinery, which provides what a direct component run needs (component/run-services).
import "./durable/component-run.js";

export { defineComponent } from "./component/component.js";
export type {
  ComponentDocument,
  ComponentSerializer,
  DeserializeContext,
  SerializeContext,
} from "./component/component-serializer.js";
export type {
  AnyComponent,
  AnyComponentClass,
  Component,
  ComponentClass,
  ComponentDefinition,
  ComponentResumeOptions,
  ComponentRunOptions,
  InferParams,
  InferResult,
  LifecycleContext,
  RunContext,
} from "./component/contract.js";
export { isComponent } from "./component/internals.js";
export type { InvokeComponentOptions } from "./component/invoke.js";
export { callComponent, componentCaller, invokeComponent } from "./component/invoke.js";
export type { CreateRegistryOptions, Registry } from "./component/registry.js";
export { createRegistry, defaultRegistry } from "./component/registry.js";
export type {
  InferInputs,
  InferOutputs,
  InferSocketInput,
  InferSocketValue,
  IsOptionalSpec,
  MaybePromise,
  RunInputs,
  Simplify,
} from "./component/types.js";
export { isPromiseLike } from "./component/types.js";
export { checkDecisions } from "./durable/decisions.js";
export type { DurableLine, FileLockOptions, NewestEntry } from "./durable/durable-files.js";
export {
  appendDurable,
  createFileExclusive,
  fsyncDirectory,
  listNewestFirst,
  readDurableLines,
  readDurableLinesBackward,
  trimTornTail,
  withFileLock,
  writeFileAtomic,
} from "./durable/durable-files.js";
export type { DurableType } from "./durable/durable-json.js";
export { fromDurableJSON, registerDurableType, toDurableJSON } from "./durable/durable-json.js";
export type { FileRunStoreOptions } from "./durable/file-run-store.js";
export { FileRunStore } from "./durable/file-run-store.js";
export { fromSnapshotJSON, toSnapshotJSON } from "./durable/value-json.js";
export type { Issue, JunctionErrorCode, JunctionErrorFields } from "./errors/errors.js";
export {
  ComponentError,
  DeserializationError,
  formatIssues,
  formatPath,
  JunctionError,
  PipelineComponentsBlockedError,
  PipelineConnectError,
  PipelineMaxComponentRuns,
  PipelineRuntimeError,
  PipelineValidationError,
  SerializationError,
} from "./errors/errors.js";
export { excerpt, excerptLength, quoteExcerpt } from "./errors/excerpt.js";
export { closestNames, didYouMean } from "./errors/suggest.js";
export { canonicalJSON, hashJSON } from "./json/canonical-json.js";
export type { CopyLimits } from "./json/untrusted-json.js";
export { copyUntrusted } from "./json/untrusted-json.js";
export type { ValueProblem } from "./json/value-limits.js";
export {
  describeValueProblem,
  describeValueProblemFix,
  exceedsDepth,
  findValueProblem,
  maxValueDepth,
  sparseCheckLength,
} from "./json/value-limits.js";
export type { LogFields, Logger, LogRecord } from "./logger.js";
export { consoleLogger, getDefaultLogger, MemoryLogger, setDefaultLogger, silentLogger } from "./logger.js";
export { PipelineBuilder } from "./pipeline/builder.js";
export type {
  CheckConnection,
  CheckName,
  ComponentMap,
  InputAddress,
  OutputAddress,
  PipelineTypeError,
} from "./pipeline/builder-types.js";
export type { DeclaredIO } from "./pipeline/declared-io.js";
export type {
  PipelineConnection,
  PipelineInputDescription,
  PipelineOutputDescription,
} from "./pipeline/describe-io.js";
export { describeType } from "./pipeline/describe-type.js";
export type { EngineSocketKind } from "./pipeline/model.js";
export type { PipelineOptions, PipelineRunOptions } from "./pipeline/options.js";
export { Pipeline } from "./pipeline/pipeline.js";
export type {
  PipelineDeserializeOptions,
  PipelineSerializeOptions,
} from "./pipeline/pipeline-document.js";
export type { PipelineIO, PipelineIOField } from "./pipeline/pipeline-io.js";
export { describePipelineIO } from "./pipeline/pipeline-io.js";
export type { InputsFormat } from "./pipeline/run-inputs.js";
export type {
  ConsumedBy,
  FedBy,
  PipelineResult,
  PipelineRunInputs,
  TypedPipeline,
  TypedPipelineEvent,
  TypedRunEndEvent,
  TypedRunOptions,
} from "./pipeline/typed-pipeline.js";
export type { Durable } from "./run/durable.js";
export { inProcessDurable, scopeDurable } from "./run/durable.js";
export type { RunInterruptedErrorFields, RunResumeErrorCode } from "./run/errors.js";
export { RunConflictError, RunInterruptedError, RunResumeError } from "./run/errors.js";
export type {
  ChunkEvent,
  ComponentEndEvent,
  ComponentStartEvent,
  NeverRanReport,
  PipelineEvent,
  PipelineOutputs,
  RunEndEvent,
} from "./run/events.js";
export type {
  Decision,
  Decisions,
  Interrupt,
  InterruptOptions,
  InterruptRequest,
  JSONValue,
  ResumeContext,
} from "./run/interrupt.js";
export { ComponentInterrupt, decisionSchema } from "./run/interrupt.js";
export { isStreaming } from "./run/nested.js";
export type { Durability, DurableRunOptions, ResumeOptions } from "./run/options.js";
export { RunSnapshot } from "./run/run-snapshot.js";
export type { RunListQuery, RunStore, RunSummary, SnapshotInfo } from "./run/run-store.js";
export { MemoryRunStore } from "./run/run-store.js";
export type { PipelineSnapshotSection, RunStatus } from "./run/snapshot-schema.js";
export { runIdPattern, runSnapshotJSONSchema, runSnapshotSchema } from "./run/snapshot-schema.js";
export type { EnvVarSecretOptions, SecretJSON } from "./secret.js";
export { Secret, secretSchema } from "./secret.js";
export type {
  DeserializeComponentOptions,
  SerializeComponentOptions,
} from "./serialization/component-serialization.js";
export { deserializeComponent, serializeComponent } from "./serialization/component-serialization.js";
export type { ComponentEntryDocument, PipelineDocument } from "./serialization/document-schema.js";
export { pipelineDocumentJSONSchema, pipelineDocumentSchema } from "./serialization/document-schema.js";
export type { Compatibility, Conversion } from "./sockets/compatibility.js";
export { checkCompatibility } from "./sockets/compatibility.js";
export type { ConversionHelpers, ConversionStrategy } from "./sockets/conversions.js";
export { registerConversion } from "./sockets/conversions.js";
export type { ExpressionViewable } from "./sockets/expression-view.js";
export { expressionView, expressionViewOf } from "./sockets/expression-view.js";
export type { NamedJSONOptions } from "./sockets/named-json.js";
export { decodeNamedJSON } from "./sockets/named-json.js";
export type { NamedTypeOptions, NamedTypeWire } from "./sockets/named-types.js";
export {
  defineNamedType,
  getNamedType,
  namedTypeName,
  namedTypeNames,
  namedTypeWire,
} from "./sockets/named-types.js";
export { isReservedName, reservedNameMessage, reservedNames } from "./sockets/reserved-names.js";
export { socketSchemaFromJSON, socketSchemaToJSON } from "./sockets/socket-json.js";
export type {
  InputSocket,
  InputSpec,
  InputSpecs,
  OutputSocket,
  OutputSpecs,
  VariadicKind,
  VariadicSpec,
} from "./sockets/sockets.js";
export { greedyVariadic, isOptionalSchema, variadic } from "./sockets/sockets.js";
export { unwrapSchema } from "./sockets/unwrap.js";
export type { WireSchema } from "./sockets/wire-schema.js";
export { decodeWireValue, wireJSONSchema } from "./sockets/wire-schema.js";
export type {
  SuperComponentClass,
  SuperComponentInit,
  SuperComponentParams,
} from "./super-component/super-component.js";
export { SuperComponent } from "./super-component/super-component.js";
export type {
  AnyInputMapping,
  AnyOutputMapping,
  SuperInputSpecs,
  SuperOutputSpecs,
} from "./super-component/super-component-types.js";
export type { InputMapping, OutputMapping } from "./super-component/super-mapping.js";
export type { Span, Tracer } from "./tracing.js";
export { InMemoryTracer, noopTracer, RecordedSpan } from "./tracing.js";
