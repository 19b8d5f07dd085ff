export type { Compatibility, Conversion } from "./compatibility.js";
export { checkCompatibility } from "./compatibility.js";
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
  InvokeComponentOptions,
  LifecycleContext,
  RunContext,
} from "./component.js";
export { defineComponent, invokeComponent, isComponent } from "./component.js";
export type {
  ComponentDocument,
  ComponentSerializer,
  DeserializeContext,
  SerializeContext,
} from "./component-serializer.js";
export type { ConversionHelpers, ConversionStrategy } from "./conversions.js";
export { registerConversion } from "./conversions.js";
export type { Durable } from "./durability/durable.js";
export { inProcessDurable, scopeDurable } from "./durability/durable.js";
export type { DurableType } from "./durability/durable-json.js";
export { fromDurableJSON, registerDurableType, toDurableJSON } from "./durability/durable-json.js";
export { canonicalJSON, hashJSON } from "./durable/canonical-json.js";
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
export type { RunInterruptedErrorFields, RunResumeErrorCode } from "./durable/errors.js";
export { RunConflictError, RunInterruptedError, RunResumeError } from "./durable/errors.js";
export type { FileRunStoreOptions } from "./durable/file-run-store.js";
export { FileRunStore } from "./durable/file-run-store.js";
export type {
  Decision,
  Decisions,
  Interrupt,
  InterruptOptions,
  InterruptRequest,
  JSONValue,
  ResumeContext,
} from "./durable/interrupt.js";
export { ComponentInterrupt, decisionSchema } from "./durable/interrupt.js";
export type { Durability, DurableRunOptions, ResumeOptions } from "./durable/run-recorder.js";
export { RunSnapshot } from "./durable/run-snapshot.js";
export type { RunListQuery, RunStore, RunSummary, SnapshotInfo } from "./durable/run-store.js";
export { MemoryRunStore } from "./durable/run-store.js";
export type { PipelineSnapshotSection, RunStatus } from "./durable/snapshot-schema.js";
export { runIdPattern, runSnapshotJSONSchema, runSnapshotSchema } from "./durable/snapshot-schema.js";
export { fromSnapshotJSON, toSnapshotJSON } from "./durable/value-json.js";
export type { Issue, JunctionErrorCode, JunctionErrorFields } from "./errors.js";
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
} from "./errors.js";
export { excerpt, excerptLength, quoteExcerpt } from "./excerpt.js";
export type { LogFields, Logger, LogRecord } from "./logger.js";
export { consoleLogger, getDefaultLogger, MemoryLogger, setDefaultLogger, silentLogger } from "./logger.js";
export type { NamedTypeOptions, NamedTypeWire } from "./named-types.js";
export {
  defineNamedType,
  getNamedType,
  namedTypeName,
  namedTypeNames,
  namedTypeWire,
} from "./named-types.js";
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
export { describeType } from "./pipeline/describe-type.js";
export type {
  ChunkEvent,
  ComponentEndEvent,
  ComponentStartEvent,
  NeverRanReport,
  PipelineEvent,
  PipelineOutputs,
  RunEndEvent,
} from "./pipeline/events.js";
export type { EngineSocketKind } from "./pipeline/model.js";
export type { PipelineOptions, PipelineRunOptions } from "./pipeline/options.js";
export type {
  PipelineConnection,
  PipelineInputDescription,
  PipelineOutputDescription,
} from "./pipeline/pipeline.js";
export { Pipeline } from "./pipeline/pipeline.js";
export type { PipelineIO, PipelineIOField } from "./pipeline/pipeline-io.js";
export { describePipelineIO } from "./pipeline/pipeline-io.js";
export type { InputsFormat } from "./pipeline/run-inputs.js";
export type {
  SuperComponentClass,
  SuperComponentInit,
  SuperComponentParams,
} from "./pipeline/super-component.js";
export { SuperComponent } from "./pipeline/super-component.js";
export type {
  AnyInputMapping,
  AnyOutputMapping,
  SuperInputSpecs,
  SuperOutputSpecs,
} from "./pipeline/super-component-types.js";
export type { InputMapping, OutputMapping } from "./pipeline/super-mapping.js";
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
export type { CreateRegistryOptions, Registry } from "./registry.js";
export { createRegistry, defaultRegistry } from "./registry.js";
export { isReservedName, reservedNameMessage, reservedNames } from "./reserved-names.js";
export type { EnvVarSecretOptions, SecretJSON } from "./secret.js";
export { Secret, secretSchema } from "./secret.js";
export type {
  DeserializeComponentOptions,
  SerializeComponentOptions,
} from "./serialization/component-serialization.js";
export { deserializeComponent, serializeComponent } from "./serialization/component-serialization.js";
export type { ComponentEntryDocument, PipelineDocument } from "./serialization/document-schema.js";
export { pipelineDocumentJSONSchema, pipelineDocumentSchema } from "./serialization/document-schema.js";
export type { CopyLimits } from "./serialization/json-data.js";
export { copyUntrusted } from "./serialization/json-data.js";
export type {
  PipelineDeserializeOptions,
  PipelineSerializeOptions,
} from "./serialization/pipeline-document.js";
export { socketSchemaFromJSON, socketSchemaToJSON } from "./socket-json.js";
export type {
  InputSocket,
  InputSpec,
  InputSpecs,
  OutputSocket,
  OutputSpecs,
  VariadicKind,
  VariadicSpec,
} from "./sockets.js";
export { greedyVariadic, isOptionalSchema, variadic } from "./sockets.js";
export { closestNames, didYouMean } from "./suggest.js";
export type { Span, Tracer } from "./tracing.js";
export { InMemoryTracer, noopTracer, RecordedSpan } from "./tracing.js";
export type {
  InferInputs,
  InferOutputs,
  InferSocketInput,
  InferSocketValue,
  IsOptionalSpec,
  MaybePromise,
  RunInputs,
  Simplify,
} from "./types.js";
export type { WireSchema } from "./wire-schema.js";
export { decodeWireValue, wireJSONSchema } from "./wire-schema.js";
