/** A structured JSON logger writing one line per record to stdout/stderr. */
export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

const LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
type Level = (typeof LEVELS)[number];

/**
 * Creates a logger that drops records below `level`.
 * @param level one of debug, info, warn, error, silent
 */
export function createLogger(level: Level): Logger {
  const min = LEVELS.indexOf(level);
  const emit = (lvl: Exclude<Level, "silent">) => (msg: string, data?: Record<string, unknown>) => {
    if (LEVELS.indexOf(lvl) < min) return;
    const line = JSON.stringify({ level: lvl, msg, ...data });
    if (lvl === "error" || lvl === "warn") console.error(line);
    else console.log(line);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}
