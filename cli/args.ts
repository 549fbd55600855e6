import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Bad command-line usage: exit code 2 with the message. */
export class UsageError extends Error {}

export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  argv: string[],
  options: T,
  allowPositionals: boolean,
) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals, strict: true });
  } catch (cause) {
    throw new UsageError(`${command}: ${(cause as Error).message}. Run "pvfdoc ${command} --help".`);
  }
}

export function parseIntOption(command: string, name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${command}: --${name} takes a whole number, got "${value}"`);
  return Number(value);
}
