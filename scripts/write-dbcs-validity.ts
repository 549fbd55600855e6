/**
 * Writes runtime/classic/dbcs-validity-data.ts, the byte and pair tables of encoding detection's
 * double-byte candidates (scripts/dbcs-validity.ts).
 *
 *   npm run codec-tables              # write the file
 *   npm run codec-tables -- --check   # write nothing; exit 1 when the file is stale
 *
 * Run it after updating iconv-lite; test/runtime/classic/dbcs-validity.test.ts fails while the file
 * is stale.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dbcsValiditySource } from './dbcs-validity.js';

const FILE = fileURLToPath(new URL('../runtime/classic/dbcs-validity-data.ts', import.meta.url));

async function main(args: readonly string[]): Promise<number> {
  const unknown = args.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    console.error(`write-dbcs-validity: unknown argument ${unknown.join(' ')}; use no argument (write) or --check`);
    return 2;
  }
  const text = dbcsValiditySource();
  const current = await readFile(FILE, 'utf8').catch(() => null);
  if (current === text) {
    console.log('runtime/classic/dbcs-validity-data.ts is up to date');
    return 0;
  }
  if (args.includes('--check')) {
    console.error('stale: runtime/classic/dbcs-validity-data.ts; run npm run codec-tables');
    return 1;
  }
  await writeFile(FILE, text);
  console.log('wrote runtime/classic/dbcs-validity-data.ts');
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
