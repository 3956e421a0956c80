import { Logger as PowertoolsLogger } from "@aws-lambda-powertools/logger";

/** A structured logger: one JSON line per record, `data` merged into it as top-level keys. */
export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

/** Keys added to every record of a {@link withLogKeys} logger; `undefined` values are left out. */
export type LogKeys = Record<string, string | number | boolean | undefined>;

const LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
type Level = (typeof LEVELS)[number];

/** The `service` key of every record. */
const SERVICE_NAME = "zulip-serverless";

const SILENT: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Creates a logger that drops records below `level`, backed by Powertools
 * for AWS Lambda's Logger: each record is one JSON line with `level`
 * (upper case), `message`, `timestamp` (ISO 8601), `service`, the X-Ray
 * trace ID when there is one, and the record's data; warnings and errors go
 * to stderr, the rest to stdout.
 *
 * The lines are JSON locally too (no pretty-printing), so `npm start`'s
 * output can be filtered with the same tools and queries as CloudWatch Logs
 * Insights, and tests can parse what a handler logged.
 *
 * Per-request keys are not kept in the logger (invocations may run
 * concurrently in one process: the local server, Managed Instances); the
 * request chain derives a logger with {@link withLogKeys} instead.
 * @param level one of debug, info, warn, error, silent
 */
export function createLogger(level: Level): Logger {
  if (level === "silent") return SILENT;
  const logger = new PowertoolsLogger({
    serviceName: SERVICE_NAME,
    logLevel: level.toUpperCase() as "DEBUG" | "INFO" | "WARN" | "ERROR",
  });
  const emit =
    (write: (msg: string, ...extra: Record<string, unknown>[]) => void) =>
    (msg: string, data?: Record<string, unknown>) =>
      data ? write(msg, data) : write(msg);
  return {
    debug: emit(logger.debug.bind(logger)),
    info: emit(logger.info.bind(logger)),
    warn: emit(logger.warn.bind(logger)),
    error: emit(logger.error.bind(logger)),
  };
}

/**
 * A logger that writes through `log` with `keys` added to every record (a
 * record's own data wins on a clash). `keys` may be a function, called for
 * each record, so that keys learned later (the caller's realm and user once
 * authenticated) appear on every line written after that.
 * @param log the underlying logger, usually the process-wide one
 * @param keys e.g. `{ request_id, route }`
 */
export function withLogKeys(log: Logger, keys: LogKeys | (() => LogKeys)): Logger {
  const merged = (data: Record<string, unknown> | undefined): Record<string, unknown> => {
    const current = typeof keys === "function" ? keys() : keys;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(current)) if (value !== undefined) out[key] = value;
    return data ? Object.assign(out, data) : out;
  };
  return {
    debug: (msg, data) => log.debug(msg, merged(data)),
    info: (msg, data) => log.info(msg, merged(data)),
    warn: (msg, data) => log.warn(msg, merged(data)),
    error: (msg, data) => log.error(msg, merged(data)),
  };
}
