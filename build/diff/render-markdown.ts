/**
 * The diff as Markdown (for a pull request or a review note). Rule text is escaped, so a title or an
 * enum label can never become markup or HTML; values are code spans. Empty when nothing changed.
 */
import type { DiffPartChange, DocumentChange, DocumentRef, SnapshotDiff } from '../../runtime/diff/diff-schema.js';
import { clip, enumCounts, formatValue, moreLines, summaryRows, versionLabel, versionList } from './format-parts.js';

/**
 * Text outside code, mid-line: the punctuation that could start emphasis, code, a link, a table cell,
 * strikethrough, an HTML tag or an entity is backslash-escaped; line breaks are folded.
 */
export function markdownText(text: string): string {
  return clip(text)
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`);
}

/** A code span that holds any text: the fence is longer than any run of backticks inside. */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

function docName(ref: Pick<DocumentRef, 'kind' | 'id' | 'origin'>): string {
  return `${ref.kind} ${codeSpan(ref.id)}${ref.origin === 'generated' ? ' (implicit)' : ''}`;
}

function partLines(parts: readonly DiffPartChange[], indent: string): string[] {
  return parts.map(
    (p) => `${indent}- ${codeSpan(p.part)}: ${codeSpan(formatValue(p.old))} → ${codeSpan(formatValue(p.new))}${p.part === 'values' ? ' (see enum values)' : ''}`,
  );
}

export function renderDiffMarkdown(diff: SnapshotDiff): string {
  if (!diff.hasChanges) return '';
  const out: string[] = [];
  out.push('# Snapshot diff', '', `${codeSpan(diff.old.rulesRevision)} → ${codeSpan(diff.new.rulesRevision)}`);

  const rows = summaryRows(diff.summary);
  if (rows.length > 0) {
    out.push('', '## Summary', '', '| | changes |', '|---|---|');
    for (const [what, text] of rows) out.push(`| ${what} | ${text} |`);
  }

  const b = diff.bundle;
  const bundleLines: string[] = [];
  for (const v of b.pvfVersions.added) bundleLines.push(`- **added** version ${codeSpan(versionLabel(v.version))} (${v.effective} effective documents)`);
  for (const v of b.pvfVersions.removed) bundleLines.push(`- **removed** version ${codeSpan(versionLabel(v.version))} (had ${v.effective} effective documents)`);
  for (const l of b.layers) {
    bundleLines.push(`- **${l.change}** layer ${codeSpan(l.name)} (${l.kind})`);
    bundleLines.push(...partLines(l.parts, '  '));
  }
  if (b.layerOrder) bundleLines.push(`- **changed** layer order: ${codeSpan(b.layerOrder.old.join(', '))} → ${codeSpan(b.layerOrder.new.join(', '))}`);
  if (b.ruleOrder.length > 0) bundleLines.push(`- **changed** effective rule order (whose title wins on a shared span) in: ${markdownText(versionList(b.ruleOrder))}`);
  if (b.renderingOrder) bundleLines.push('- **changed** rendering rule order (a later rule wins ties)');
  for (const note of b.notes) bundleLines.push(`- note: ${markdownText(note)}`);
  if (bundleLines.length > 0) out.push('', '## Bundle', '', ...bundleLines);

  const docLine = (c: DocumentChange): string => {
    const ref = c.new ?? c.old;
    if (!ref) return '';
    const title = ref.title === '' ? '' : ` ${markdownText(ref.title)}`;
    if (c.change === 'moved' && c.old && c.new) {
      return `- **moved** ${docName(ref)}${title}: layer ${codeSpan(c.old.layer)} → ${codeSpan(c.new.layer)} (${codeSpan(c.old.documentId)} → ${codeSpan(c.new.documentId)})`;
    }
    return `- **${c.change}** ${docName(ref)} (layer ${codeSpan(ref.layer)})${title} — ${codeSpan(ref.documentId)}`;
  };

  for (const g of diff.fileTypes) {
    out.push('', `## ${g.fileType.startsWith('(') ? markdownText(g.fileType) : codeSpan(g.fileType)}`);
    if (g.documents.length > 0) {
      out.push('', '### Documents', '');
      for (const c of g.documents) out.push(docLine(c), ...partLines(c.parts.filter((p) => !(c.change === 'moved' && p.part === 'layer')), '  '));
    }
    if (g.enumValues.length > 0) {
      out.push('', '### Enum values', '');
      for (const e of g.enumValues) {
        const layers = [...new Set(e.documents.map((d) => d.layer))].map(codeSpan).join(', ');
        out.push(`- ${e.documents.map(docName).join(', ')} (layer ${layers}): ${enumCounts(e)}`);
        for (const [k, v] of e.added.items) out.push(`  - added ${codeSpan(k)}: ${markdownText(v)}`);
        for (const [k, v] of e.removed.items) out.push(`  - removed ${codeSpan(k)}: ${markdownText(v)}`);
        for (const r of e.relabelled.items) out.push(`  - relabelled ${codeSpan(r.key)}: ${markdownText(r.old)} → ${markdownText(r.new)}`);
        for (const more of moreLines(e)) out.push(`  - ${more}`);
        if (e.reordered) out.push('  - order of the kept keys changed');
      }
    }
    if (g.effective.length > 0) {
      out.push('', '### Effective state', '');
      for (const e of g.effective) {
        const moved = e.oldDocumentId !== e.document.documentId ? `${codeSpan(e.oldDocumentId)} → ` : '';
        out.push(`- ${docName(e.document)} (layer ${codeSpan(e.document.layer)}) — ${moved}${codeSpan(e.document.documentId)}`);
        for (const t of e.transitions) {
          const reason = t.new.reason ? ` — ${markdownText(t.new.reason)}` : '';
          out.push(`  - ${markdownText(versionList(t.versions))}: ${t.old.state} → **${t.new.state}**${reason}`);
        }
      }
    }
  }

  if (diff.relations.length > 0) {
    out.push('', '## Relations', '');
    for (const c of diff.relations) {
      const ref = c.new ?? c.old;
      if (!ref) continue;
      const where = c.change === 'moved' && c.old && c.new ? `layer ${codeSpan(c.old.layer)} → ${codeSpan(c.new.layer)}` : `layer ${codeSpan(ref.layer)}, ${ref.kind}`;
      out.push(`- **${c.change}** ${codeSpan(ref.name)} (${where})`, ...partLines(c.parts.filter((p) => !(c.change === 'moved' && p.part === 'layer')), '  '));
    }
  }

  if (diff.rendering.length > 0) {
    out.push('', '## Rendering rules', '');
    for (const c of diff.rendering) {
      const ref = c.new ?? c.old;
      if (!ref) continue;
      const where = c.change === 'moved' && c.old && c.new ? `layer ${codeSpan(c.old.layer)} → ${codeSpan(c.new.layer)}` : `layer ${codeSpan(ref.layer)}`;
      out.push(`- **${c.change}** ${codeSpan(ref.id)} (${where})`, ...partLines(c.parts.filter((p) => !(c.change === 'moved' && p.part === 'layer')), '  '));
    }
  }
  return `${out.join('\n')}\n`;
}
