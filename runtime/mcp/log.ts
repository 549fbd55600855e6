/**
 * Log lines of the server: `[pvfdoc] [scope] message`, on stderr only (on stdio, stdout carries the
 * protocol). Passed around in the server context, so tests can capture it and nothing is global.
 */
type LogLevel = 'info' | 'warn' | 'error';

export type Logger = (level: LogLevel, scope: string, message: string) => void;

export function createStderrLogger(write: (line: string) => void = (line) => void process.stderr.write(line)): Logger {
  return (level, scope, message) => {
    write(`[pvfdoc] [${scope}]${level === 'info' ? '' : ` ${level}:`} ${message}\n`);
  };
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger: Logger = () => undefined;
