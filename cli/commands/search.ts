import { searchDocuments } from '../../runtime/search/search-documents.js';
import { SearchInputSchema, type SearchInput, type SearchOutput } from '../../runtime/search/search-schema.js';
import { parseCommandArgs, parseIntOption, UsageError } from '../args.js';
import { openSnapshot } from '../open-snapshot.js';
import { formatTable } from '../format-table.js';

const HELP = `Usage: pvfdoc search [options] [query...]

Searches the rules of a snapshot like the MCP tool pvf_annotation_search.
  --snapshot <dir>        bundle folder, or a snapshots folder (uses its current); default ./snapshots
  --json                  print the tool's structuredContent (items, nextCursor, ...)
  --section <S>           section name, with or without brackets
  --file-path <P>         archive path the rules must apply to (file; see --path-kind)
  --path-kind <K>         file (default) or directory
  --extension <.ext>      repeatable; rules declaring any of them
  --kind <rule|field>     repeatable
  --target-kind <K>       path, section or token; repeatable
  --annotation-type <T>   text, enum, reference, path or image; repeatable
  --relation <name>       relation name, exact
  --pvf-version <V|all>   a version such as 110US, or all (default all)
  --status <S>            effective (default) or all
  --limit <n>             page size 1–100 (default 20)
  --cursor <c>            nextCursor of the previous page`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'search',
    argv,
    {
      snapshot: { type: 'string' },
      json: { type: 'boolean' },
      section: { type: 'string' },
      'file-path': { type: 'string' },
      'path-kind': { type: 'string' },
      extension: { type: 'string', multiple: true },
      kind: { type: 'string', multiple: true },
      'target-kind': { type: 'string', multiple: true },
      'annotation-type': { type: 'string', multiple: true },
      relation: { type: 'string' },
      'pvf-version': { type: 'string' },
      status: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
    },
    true,
  );
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const raw: Record<string, unknown> = {
    query: positionals.length > 0 ? positionals.join(' ') : undefined,
    filePath: values['file-path'],
    pathKind: values['path-kind'],
    extensions: values.extension,
    section: values.section,
    kinds: values.kind,
    targetKinds: values['target-kind'],
    annotationTypes: values['annotation-type'],
    relation: values.relation,
    pvfVersion: values['pvf-version'] ?? 'all',
    status: values.status,
    cursor: values.cursor,
    limit: parseIntOption('search', 'limit', values.limit),
  };
  for (const key of Object.keys(raw)) if (raw[key] === undefined) delete raw[key];
  const parsed = SearchInputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`search: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid arguments'}`);
  }
  const bundle = await openSnapshot(values.snapshot);
  const result = searchDocuments(bundle, parsed.data as SearchInput);
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : renderSearch(result));
  return 0;
}

function renderSearch(result: SearchOutput): string {
  if (result.items.length === 0) {
    return `no matches (rulesRevision ${result.rulesRevision}); try fewer filters or another query\n`;
  }
  const rows = result.items.map((item) => [
    item.documentId,
    item.kind === 'rule' ? (item.ruleId ?? '') : `field ${item.fieldId ?? ''}`,
    item.section === null ? '' : `[${item.section}]`,
    item.annotationType,
    item.title,
    item.effective ? '' : item.state,
  ]);
  const table = formatTable(['documentId', 'id', 'section', 'type', 'title', 'status'], rows);
  const more = result.nextCursor ? `\nmore: --cursor ${result.nextCursor}` : '';
  return `${table}\n${result.items.length} of ${result.totalMatches} (rulesRevision ${result.rulesRevision}, version ${result.context.pvfVersion})${more}\n`;
}
