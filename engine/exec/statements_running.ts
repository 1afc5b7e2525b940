/** Statements being executed or streamed (Engine.execute keeps the count); pacing reads it. */
export const statementsRunning = { count: 0 };
