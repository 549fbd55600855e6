#!/usr/bin/env node
/**
 * pvfdoc command line. Parses arguments, then loads only the module of the command given, so `serve`
 * never loads the compiler. Every failure is one line with the cause and the fix, and a non-zero exit.
 */
import { formatError, isPvfdocError } from '../runtime/errors.js';
import { UsageError } from './args.js';

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run(argv: string[]): Promise<number> }> }> = {
  build: { summary: 'compile rule layers into a snapshot bundle', load: () => import('./commands/build.js') },
  validate: { summary: 'check rule layers and report every problem', load: () => import('./commands/validate.js') },
  search: { summary: 'search the rules of a snapshot', load: () => import('./commands/search.js') },
  get: { summary: 'show one document of a snapshot', load: () => import('./commands/get.js') },
  diff: { summary: 'show what changed between two rule snapshots (text, Markdown or JSON)', load: () => import('./commands/diff.js') },
  explain: { summary: 'explain the annotations of one script file of a workspace', load: () => import('./commands/explain.js') },
  serve: { summary: 'serve the MCP tools over stdio or Streamable HTTP', load: () => import('./commands/serve.js') },
  site: { summary: 'build the static reference site (Astro) from a snapshot', load: () => import('./commands/site.js') },
  export: { summary: 'write the tag knowledge for pvfUtility or the pvf-parser-ts VS Code extension', load: () => import('./commands/export.js') },
};

const USAGE = `Usage: pvfdoc <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`)
  .join('\n')}

Run "pvfdoc <command> --help" for the options of a command.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    const { ENGINE_VERSION } = await import('../runtime/bundle/constants.js');
    process.stdout.write(`${ENGINE_VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`pvfdoc: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(', ')}.\n`);
    return 2;
  }
  return (await command.load()).run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`pvfdoc: ${error.message}\n`);
      process.exitCode = 2;
    } else if (isPvfdocError(error)) {
      process.stderr.write(`pvfdoc: [${error.code}] ${formatError(error)}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`pvfdoc: internal error (a bug; please report it):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 70;
    }
  },
);
