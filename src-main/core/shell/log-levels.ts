/** The log's levels, in a module of their own: the server's entry reads them before it loads the log's library. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
