/**
 * The diff as terminal text. Nothing at all when nothing changed (like `git diff`). With `color`,
 * ANSI colours: added green, removed red, changed yellow, moved cyan, headings bold.
 */
import type { DiffPartChange, DocumentChange, SnapshotDiff } from '../../runtime/diff/diff-schema.js';
import {
  documentLabel,
  enumCounts,
  enumDocuments,
  formatValue,
  moreLines,
  quoted,
  summaryRows,
  versionLabel,
  versionList,
} from './format-parts.js';

export interface TextOptions {
  color: boolean;
}

const MARK = { added: '+', removed: '-', moved: '>', changed: '~' } as const;
const COLOR = { added: 32, removed: 31, moved: 36, changed: 33 } as const;

export function renderDiffText(diff: SnapshotDiff, options: TextOptions = { color: false }): string {
  if (!diff.hasChanges) return '';
  const paint = (code: number, text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const bold = (text: string) => paint(1, text);
  const dim = (text: string) => paint(2, text);
  const mark = (change: keyof typeof MARK, text: string) => paint(COLOR[change], `${MARK[change]} ${text}`);
  const out: string[] = [];
  const line = (indent: number, text: string) => out.push(`${' '.repeat(indent)}${text}`);
  const parts = (indent: number, list: readonly DiffPartChange[]) => {
    for (const p of list) line(indent, `${p.part}: ${formatValue(p.old)} → ${formatValue(p.new)}${p.part === 'values' ? ' (see enum values)' : ''}`);
  };

  line(0, bold(`snapshot diff ${diff.old.rulesRevision} → ${diff.new.rulesRevision}`));
  const rows = summaryRows(diff.summary);
  if (rows.length > 0) {
    out.push('');
    line(0, bold('summary'));
    const width = Math.max(...rows.map(([what]) => what.length));
    for (const [what, text] of rows) line(2, `${what.padEnd(width)}  ${text}`);
  }

  const b = diff.bundle;
  const bundleLines: string[] = [];
  for (const v of b.pvfVersions.added) bundleLines.push(mark('added', `version ${versionLabel(v.version)} (${v.effective} effective documents)`));
  for (const v of b.pvfVersions.removed) bundleLines.push(mark('removed', `version ${versionLabel(v.version)} (had ${v.effective} effective documents)`));
  const layerBlocks: string[][] = b.layers.map((l) => [
    mark(l.change, `layer ${l.name} (${l.kind})`),
    ...l.parts.map((p) => `    ${p.part}: ${formatValue(p.old)} → ${formatValue(p.new)}`),
  ]);
  for (const block of layerBlocks) bundleLines.push(...block);
  if (b.layerOrder) bundleLines.push(mark('changed', `layer order: ${b.layerOrder.old.join(', ')} → ${b.layerOrder.new.join(', ')}`));
  if (b.ruleOrder.length > 0) bundleLines.push(mark('changed', `effective rule order (whose title wins on a shared span) changed in: ${versionList(b.ruleOrder)}`));
  if (b.renderingOrder) bundleLines.push(mark('changed', 'rendering rule order (a later rule wins ties) changed'));
  for (const note of b.notes) bundleLines.push(`note: ${note}`);
  if (bundleLines.length > 0) {
    out.push('');
    line(0, bold('bundle'));
    for (const l of bundleLines) line(2, l);
  }

  const docHeader = (c: DocumentChange): string => {
    const ref = c.new ?? c.old;
    if (!ref) return '';
    if (c.change === 'moved' && c.old && c.new) {
      return mark('moved', `${documentLabel(ref)} ${quoted(ref.title)} moved ${c.old.layer} → ${c.new.layer} `) + dim(`[${c.old.documentId} → ${c.new.documentId}]`);
    }
    return mark(c.change, `${documentLabel(ref)} (${ref.layer}) ${quoted(ref.title)} `) + dim(`[${ref.documentId}]`);
  };

  for (const g of diff.fileTypes) {
    out.push('');
    line(0, bold(g.fileType));
    if (g.documents.length > 0) {
      line(2, bold('documents'));
      for (const c of g.documents) {
        line(4, docHeader(c));
        parts(8, c.parts.filter((p) => !(c.change === 'moved' && p.part === 'layer')));
      }
    }
    if (g.enumValues.length > 0) {
      line(2, bold('enum values'));
      for (const e of g.enumValues) {
        line(4, `${enumDocuments(e)}: ${enumCounts(e)}`);
        for (const [k, v] of e.added.items) line(8, mark('added', `${quoted(k)} = ${quoted(v)}`));
        for (const [k, v] of e.removed.items) line(8, mark('removed', `${quoted(k)} = ${quoted(v)}`));
        for (const r of e.relabelled.items) line(8, mark('changed', `${quoted(r.key)} = ${quoted(r.old)} → ${quoted(r.new)}`));
        for (const more of moreLines(e)) line(8, more);
        if (e.reordered) line(8, 'order of the kept keys changed');
      }
    }
    if (g.effective.length > 0) {
      line(2, bold('effective state'));
      for (const e of g.effective) {
        const moved = e.oldDocumentId !== e.document.documentId ? `${e.oldDocumentId} → ` : '';
        line(4, `${documentLabel(e.document)} (${e.document.layer}) ${dim(`[${moved}${e.document.documentId}]`)}`);
        for (const t of e.transitions) {
          const color = t.new.effective ? 'added' : t.old.effective ? 'removed' : 'changed';
          const reason = t.new.reason ? ` (${t.new.reason})` : '';
          line(8, paint(COLOR[color], `${versionList(t.versions)}: ${t.old.state} → ${t.new.state}${reason}`));
        }
      }
    }
  }

  if (diff.relations.length > 0) {
    out.push('');
    line(0, bold('relations'));
    for (const c of diff.relations) {
      const ref = c.new ?? c.old;
      if (!ref) continue;
      const where = c.change === 'moved' && c.old && c.new ? `moved ${c.old.layer} → ${c.new.layer}` : `(${ref.layer}, ${ref.kind})`;
      line(2, mark(c.change, `${ref.name} ${where}`));
      parts(6, c.parts.filter((p) => !(c.change === 'moved' && p.part === 'layer')));
    }
  }

  if (diff.rendering.length > 0) {
    out.push('');
    line(0, bold('rendering rules'));
    for (const c of diff.rendering) {
      const ref = c.new ?? c.old;
      if (!ref) continue;
      const where = c.change === 'moved' && c.old && c.new ? `moved ${c.old.layer} → ${c.new.layer}` : `(${ref.layer})`;
      line(2, mark(c.change, `${ref.id} ${where}`));
      parts(6, c.parts.filter((p) => !(c.change === 'moved' && p.part === 'layer')));
    }
  }
  return `${out.join('\n')}\n`;
}
