/**
 * The pluggable logger. Library code never writes to `console` directly; it reports here.
 */

/** Structured fields attached to a log record. */
export type LogFields = Readonly<Record<string, unknown>>;

/** A logger: four levels, each taking a message and optional structured fields. */
export interface Logger {
  /** Detailed diagnostics. */
  debug(message: string, fields?: LogFields): void;
  /** Normal events worth knowing about. */
  info(message: string, fields?: LogFields): void;
  /** Something the user probably wants to fix (an un-taken branch, an ambiguous configuration). */
  warn(message: string, fields?: LogFields): void;
  /** A failure. */
  error(message: string, fields?: LogFields): void;
}

/** One record kept by a {@link MemoryLogger}. */
export interface LogRecord {
  /** The level it was logged at. */
  readonly level: "debug" | "info" | "warn" | "error";
  /** The message. */
  readonly message: string;
  /** The structured fields, `{}` when none were given. */
  readonly fields: LogFields;
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** A logger that writes warnings and errors to the console and drops debug and info. */
export const consoleLogger: Logger = {
  debug() {},
  info() {},
  warn(message, fields) {
    if (fields === undefined) console.warn(`[junction] ${message}`);
    else console.warn(`[junction] ${message}`, fields);
  },
  error(message, fields) {
    if (fields === undefined) console.error(`[junction] ${message}`);
    else console.error(`[junction] ${message}`, fields);
  },
};

/** A logger that keeps every record in memory; tests read `records`. */
export class MemoryLogger implements Logger {
  /** Every record, in order. */
  readonly records: LogRecord[] = [];

  /** @inheritDoc */
  debug(message: string, fields: LogFields = {}): void {
    this.records.push({ level: "debug", message, fields });
  }
  /** @inheritDoc */
  info(message: string, fields: LogFields = {}): void {
    this.records.push({ level: "info", message, fields });
  }
  /** @inheritDoc */
  warn(message: string, fields: LogFields = {}): void {
    this.records.push({ level: "warn", message, fields });
  }
  /** @inheritDoc */
  error(message: string, fields: LogFields = {}): void {
    this.records.push({ level: "error", message, fields });
  }
  /** The messages logged at `level`. */
  messages(level: LogRecord["level"]): string[] {
    return this.records.filter((record) => record.level === level).map((record) => record.message);
  }
}

let defaultLogger: Logger = consoleLogger;

/** The logger used when none is passed explicitly (initially {@link consoleLogger}). */
export function getDefaultLogger(): Logger {
  return defaultLogger;
}

/** Replaces the process-wide default logger. @param logger - the new default */
export function setDefaultLogger(logger: Logger): void {
  defaultLogger = logger;
}
