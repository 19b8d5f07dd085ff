export { CAPTURE_CONTENT_ENV, GEN_AI } from "./attributes.js";
export type { OpenTelemetryTracerOptions } from "./opentelemetry-tracer.js";
export { OpenTelemetryTracer } from "./opentelemetry-tracer.js";
