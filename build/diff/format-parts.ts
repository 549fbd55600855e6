/** Shared wording of the diff renderers (text and Markdown): labels, values, counts. */
import type { JsonValue } from '../../runtime/bundle/schema.js';
import { ChangeKindSchema, type ChangeKind, type DiffSummary, type DocumentRef, type EnumChange } from '../../runtime/diff/diff-schema.js';

/** Longest string value shown, in code points; the JSON output always holds the whole value. */
export const MAX_SHOWN_CODE_POINTS = 200;

export function versionLabel(version: string): string {
  return version === '' ? '(unknown)' : version;
}

export function versionList(versions: readonly string[]): string {
  return versions.map(versionLabel).join(', ');
}

/** `rule r.name`, `field f.rarity`, `rule field:f.rarity (implicit)`. */
export function documentLabel(ref: Pick<DocumentRef, 'kind' | 'id' | 'origin'>): string {
  return `${ref.kind} ${ref.id}${ref.origin === 'generated' ? ' (implicit)' : ''}`;
}

export function clip(text: string, max = MAX_SHOWN_CODE_POINTS): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/** Drops null members of objects, so a target reads `{"kind":"token","section":"name","index":0}`. */
function compact(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(compact);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = compact(v);
    return out;
  }
  return value;
}

function isStatus(value: JsonValue): value is { status: string; reason: string | null } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value.status === 'string' && 'reason' in value;
}

/** One value of a changed part, as one line: strings quoted (whitespace visible), null as "(none)". */
export function formatValue(value: JsonValue): string {
  if (isStatus(value)) return value.reason ? `${value.status} (${clip(value.reason)})` : value.status;
  if (value === null) return '(none)';
  if (typeof value === 'string') return JSON.stringify(clip(value));
  if (typeof value !== 'object') return String(value);
  return clip(JSON.stringify(compact(value)));
}

export function quoted(text: string): string {
  return JSON.stringify(clip(text));
}

/** Rows of the summary: [what, text], only those with something to say. */
export function summaryRows(summary: DiffSummary): [string, string][] {
  const rows: [string, string][] = [];
  const counts = (c: Partial<Record<ChangeKind, number>>) =>
    ChangeKindSchema.options
      .filter((k) => (c[k] ?? 0) > 0)
      .map((k) => `${c[k] ?? 0} ${k}`)
      .join(', ');
  const push = (what: string, text: string) => {
    if (text !== '') rows.push([what, text]);
  };
  push('documents', counts(summary.documents));
  const e = summary.enumValues;
  if (e.enums > 0) {
    const parts = [
      e.added > 0 ? `${e.added} added` : '',
      e.removed > 0 ? `${e.removed} removed` : '',
      e.relabelled > 0 ? `${e.relabelled} relabelled` : '',
      e.reordered > 0 ? `${e.reordered} reordered` : '',
    ].filter(Boolean);
    push('enum values', `${parts.join(', ')} in ${e.enums} enum${e.enums === 1 ? '' : 's'}`);
  }
  if (summary.effective.documents > 0) {
    push('effective state', `${summary.effective.documents} document${summary.effective.documents === 1 ? '' : 's'}`);
  }
  push('relations', counts(summary.relations));
  push('rendering rules', counts(summary.rendering));
  push('layers', counts(summary.layers));
  return rows;
}

/** "4 → 5 values". */
export function enumCounts(change: EnumChange): string {
  return change.oldCount === change.newCount ? `${change.newCount} values` : `${change.oldCount} → ${change.newCount} values`;
}

/** The documents of an enum change: "field f.rarity, rule field:f.rarity (implicit) (builtin)". */
export function enumDocuments(change: EnumChange): string {
  const layers = [...new Set(change.documents.map((d) => d.layer))];
  return `${change.documents.map(documentLabel).join(', ')} (${layers.join(', ')})`;
}

/** "… 12 more added" lines for lists cut to the sample size. */
export function moreLines(change: EnumChange): string[] {
  const lines: string[] = [];
  const more = (n: number, what: string) => {
    if (n > 0) lines.push(`… ${n} more ${what}`);
  };
  more(change.added.count - change.added.items.length, 'added');
  more(change.removed.count - change.removed.items.length, 'removed');
  more(change.relabelled.count - change.relabelled.items.length, 'relabelled');
  return lines;
}

