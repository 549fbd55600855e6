/**
 * Writes the editor JSON Schemas of the rule files into schemas/ (build/rule-json-schemas.ts).
 *
 *   npm run schemas              # write schemas/*.schema.json
 *   npm run schemas -- --check   # write nothing; exit 1 and name the stale files when any differs
 *
 * Run it after changing build/input-schema.ts or build/rule-json-schema-notes.ts; the test
 * test/build/rule-json-schemas.test.ts fails while a tracked file is stale.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULE_SCHEMA_DIR, RULE_SCHEMAS, ruleJsonSchemaText } from '../build/rule-json-schemas.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

async function main(args: readonly string[]): Promise<number> {
  const unknown = args.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    console.error(`write-rule-schemas: unknown argument ${unknown.join(' ')}; use no argument (write) or --check`);
    return 2;
  }
  const check = args.includes('--check');
  const dir = path.join(ROOT, RULE_SCHEMA_DIR);
  const stale: string[] = [];
  if (!check) await mkdir(dir, { recursive: true });
  for (const schema of RULE_SCHEMAS) {
    const file = path.join(dir, schema.fileName);
    const text = ruleJsonSchemaText(schema.name);
    const current = await readFile(file, 'utf8').catch(() => null);
    if (current === text) continue;
    stale.push(`${RULE_SCHEMA_DIR}/${schema.fileName}`);
    if (!check) await writeFile(file, text);
  }
  if (check && stale.length > 0) {
    console.error(`stale: ${stale.join(', ')}; run npm run schemas`);
    return 1;
  }
  console.log(stale.length === 0 ? `${RULE_SCHEMA_DIR}/ is up to date` : `wrote ${stale.join(', ')}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
