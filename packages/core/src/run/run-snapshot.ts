import { DeserializationError, formatIssues, type Issue, zodIssues } from "../errors/errors.js";
import { canonicalJSON, hmac, sameSignature } from "../json/canonical-json.js";
import { copyUntrusted } from "../json/untrusted-json.js";
import { maxSnapshotDepth } from "../json/value-limits.js";
import { RunResumeError } from "./errors.js";
import {
  type RunSnapshot as RunSnapshotData,
  runSnapshotJSONSchema,
  runSnapshotSchema,
} from "./snapshot-schema.js";

/** A run snapshot (format `junction.run-snapshot`, version 1): plain JSON data. See {@link RunSnapshot}. */
export type RunSnapshot = RunSnapshotData;

/**
 * Snapshots may hold long conversations and whatever a run was given: more values than a pipeline
 * document, and the values of a run (nested up to `maxValueDepth`) inside the snapshot's own structure.
 */
export const snapshotLimits = { maxDepth: maxSnapshotDepth, maxNodes: 1_000_000 };

function parse(doc: unknown, where = "RunSnapshot.parse"): RunSnapshot {
  const issues: Issue[] = [];
  const copy = copyUntrusted(doc, [], issues, snapshotLimits);
  if (issues.length === 0) {
    const parsed = runSnapshotSchema.safeParse(copy);
    if (parsed.success) return parsed.data;
    issues.push(...zodIssues(parsed.error));
  }
  throw new DeserializationError(
    `${where}: not a valid junction.run-snapshot (version 1):\n${formatIssues(issues.slice(0, 50))}`,
    { issues },
  );
}

function unsigned(snapshot: RunSnapshot): Omit<RunSnapshot, "signature"> {
  const { signature: _ignored, ...rest } = snapshot;
  return rest;
}

/**
 * Reading, signing and describing run snapshots. A snapshot is data: original inputs, socket values,
 * the Agent's State and step, pending interrupts and decisions — never tools, generators, callbacks or
 * signals, which are supplied again on resume.
 *
 * @example
 * ```ts
 * const signed = RunSnapshot.sign(error.snapshot, secret);   // hand it to a client
 * const back = RunSnapshot.verify(JSON.parse(body), secret); // throws when it was changed
 * ```
 */
export const RunSnapshot = {
  /** The format name. */
  format: "junction.run-snapshot" as const,
  /** The current format version. */
  version: 1 as const,
  /**
   * Loads an untrusted snapshot document: copied as JSON data (no prototypes, bounded size and depth),
   * then validated; every problem is reported at once.
   *
   * @throws DeserializationError listing every problem
   */
  parse(doc: unknown): RunSnapshot {
    return parse(doc);
  },
  /**
   * Signs a snapshot for a trip through a client: an HMAC-SHA256 over its canonical JSON (without any
   * previous signature), stored in `signature`.
   *
   * @param snapshot - the snapshot
   * @param secret - the server's signing secret
   */
  sign(snapshot: RunSnapshot, secret: string | Uint8Array): RunSnapshot {
    const body = unsigned(snapshot);
    return { ...body, signature: hmac(canonicalJSON(body), secret) };
  },
  /**
   * Checks a signed snapshot (untrusted input is fine) and returns it parsed.
   *
   * @throws RunResumeError `SNAPSHOT_SIGNATURE_INVALID` when it is unsigned or was changed; DeserializationError when malformed
   */
  verify(doc: unknown, secret: string | Uint8Array): RunSnapshot {
    const snapshot = parse(doc, "RunSnapshot.verify");
    const expected = hmac(canonicalJSON(unsigned(snapshot)), secret);
    if (snapshot.signature === undefined || !sameSignature(snapshot.signature, expected)) {
      throw new RunResumeError(
        "SNAPSHOT_SIGNATURE_INVALID",
        `RunSnapshot.verify: the snapshot of run "${snapshot.runId}" is ${snapshot.signature === undefined ? "not signed" : "signed with another secret or was changed"}; it is refused. Sign snapshots with RunSnapshot.sign(snapshot, secret) before handing them out.`,
      );
    }
    return snapshot;
  },
  /** The JSON Schema of the format (draft 2020-12), generated from the loader's zod schema. */
  jsonSchema(): Record<string, unknown> {
    return runSnapshotJSONSchema();
  },
};
