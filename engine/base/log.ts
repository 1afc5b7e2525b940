/**
 * The server's log: one line per event, `<UTC time> <level> <component> <message>`, on stderr
 * for errors and stdout otherwise, filtered by `log.level`. Levels are QuestDB's letters:
 * D (debug), I (info), A (advisory: always shown), E (error), C (critical).
 *
 * Secrets never reach a line: SQL text goes through `redactSql` (password and secret literals
 * become `'****'`), and callers log names, never credentials.
 */

export type LogLevel = "D" | "I" | "A" | "E" | "C";

const RANK: Record<LogLevel, number> = { D: 0, I: 1, E: 2, C: 3, A: 4 };

/** `log.level` values: QuestDB's level names and their letters. */
const LEVEL_NAMES: Record<string, LogLevel> = {
  debug: "D",
  d: "D",
  info: "I",
  i: "I",
  error: "E",
  e: "E",
  critical: "C",
  c: "C",
  advisory: "A",
  a: "A",
};

const settings = { minRank: RANK.I, slowQueryMs: 10_000, write: defaultWrite };

function defaultWrite(level: LogLevel, line: string): void {
  if (level === "E" || level === "C") console.error(line);
  else console.log(line);
}

/**
 * Sets the level and the slow statement threshold (main.ts, from `log.level` and
 * `cairo.sql.slow.query.threshold`); undefined keeps the current value. An unknown level name
 * is an error naming the setting.
 */
export function configureLog(options: {
  level?: string;
  slowQueryMs?: number;
  write?: (level: LogLevel, line: string) => void;
}): void {
  if (options.level !== undefined) {
    const level = LEVEL_NAMES[options.level.trim().toLowerCase()];
    if (!level) {
      throw new Error(`log.level must be debug, info, error, critical or advisory [value=${options.level}]`);
    }
    settings.minRank = RANK[level];
  }
  if (options.slowQueryMs !== undefined) settings.slowQueryMs = options.slowQueryMs;
  if (options.write) settings.write = options.write;
}

/** Statements running at least this long are logged with their time (`cairo.sql.slow.query.threshold`). */
export function slowQueryMs(): number {
  return settings.slowQueryMs;
}

/** Critical lines (a server that cannot start) pass every `log.level`, as advisory ones do. */
export function logEnabled(level: LogLevel): boolean {
  return level === "C" || RANK[level] >= settings.minRank;
}

/** Writes one line when `level` passes `log.level`; line breaks in `message` are escaped. */
export function log(level: LogLevel, component: string, message: string): void {
  if (!logEnabled(level)) return;
  const text = message.replaceAll("\r", "\\r").replaceAll("\n", "\\n");
  settings.write(level, `${new Date().toISOString()} ${level} ${component} ${text}`);
}

/**
 * SQL text safe to log: the string literal after PASSWORD, SECRET or TOKEN (CREATE/ALTER USER,
 * ADD PASSWORD, connection strings) becomes `'****'`, and so does any literal that looks like a
 * REST token (`qt1…`).
 */
export function redactSql(sql: string): string {
  return sql
    .replace(/\b(password|secret|token)(\s*(?:=\s*)?)'(?:[^']|'')*'/gi, "$1$2'****'")
    .replace(/'qt1[^']*'/g, "'****'");
}
