import { getDocument } from '../../runtime/get/get-document.js';
import type { GetOutput } from '../../runtime/get/get-schema.js';
import { parseCommandArgs, parseIntOption, UsageError } from '../args.js';
import { openSnapshot } from '../open-snapshot.js';

const HELP = `Usage: pvfdoc get [options] <documentId>

Shows one document like the MCP tool pvf_annotation_get.
  --snapshot <dir>        bundle folder, or a snapshots folder (uses its current); default ./snapshots
  --json                  print the tool's structuredContent
  --value <key>           look up one enum key exactly ("001" and "1" differ)
  --values-limit <n>      enum values per page, 1–100 (default 50)
  --values-cursor <c>     valuesNextCursor of the previous call`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'get',
    argv,
    {
      snapshot: { type: 'string' },
      json: { type: 'boolean' },
      value: { type: 'string' },
      'values-limit': { type: 'string' },
      'values-cursor': { type: 'string' },
    },
    true,
  );
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('get: give exactly one documentId (from pvfdoc search)');
  const valuesLimit = parseIntOption('get', 'values-limit', values['values-limit']);
  if (valuesLimit !== undefined && (valuesLimit < 1 || valuesLimit > 100)) throw new UsageError('get: --values-limit must be 1–100');
  const bundle = await openSnapshot(values.snapshot);
  const result = getDocument(bundle, {
    documentId: positionals[0] as string,
    ...(values.value !== undefined ? { value: values.value } : {}),
    ...(valuesLimit !== undefined ? { valuesLimit } : {}),
    ...(values['values-cursor'] !== undefined ? { valuesCursor: values['values-cursor'] } : {}),
  });
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : renderGet(result));
  return 0;
}

function renderGet(result: GetOutput): string {
  const d = result.document;
  const t = result.resolvedDefinition.target;
  const lines = [
    `${d.kind === 'rule' ? 'rule' : 'field'} ${d.ruleId ?? d.fieldId ?? ''}  (${d.documentId}, layer ${d.layer}, ${d.source}, ${d.origin})`,
    `title:   ${d.title}`,
    `status:  ${d.status}${d.statusReason ? ` — ${d.statusReason}` : ''}`,
    `match:   extensions [${result.resolvedDefinition.match.extensions.join(', ')}] glob "${result.resolvedDefinition.match.glob}"`,
    `target:  ${Object.entries(t)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(' ')}`,
    `type:    ${result.resolvedDefinition.annotation.type}${d.pvfVersions.length ? `  versions ${d.pvfVersions.join(', ')}` : ''}`,
  ];
  if (d.description) lines.push(`about:   ${d.description}`);
  if (d.content) lines.push('', d.content);
  if (result.valueLookup) {
    lines.push('', result.valueLookup.found ? `value ${result.valueLookup.key} = ${result.valueLookup.label}` : `value ${result.valueLookup.key}: not found`);
  }
  if (result.valueCount > 0) {
    lines.push('', `values (${result.values.length} of ${result.valueCount}):`);
    for (const v of result.values) lines.push(`  ${v.key}\t${v.label}`);
    if (result.valuesNextCursor) lines.push(`  more: --values-cursor ${result.valuesNextCursor}`);
  }
  for (const r of result.relations) {
    lines.push('', `relation ${r.name} (${r.kind}${r.contextRequired ? ', needs context' : ''}): ${r.listPaths.join(', ')}`);
    for (const p of r.problems) lines.push(`  problem: ${p.message}`);
  }
  return `${lines.join('\n')}\n`;
}
