/**
 * One `pvf_annotation_get` answer as a panel: title, where it comes from, trust, the whole content,
 * the looked-up value or the first page of values, relations and sources. Both views show documents
 * this way.
 */
import type { GetOutput } from '../../../get/get-schema.js';
import { el, field, fieldList } from './dom.js';
import type { ViewStrings } from './i18n.js';

export function trustChip(t: ViewStrings, trust: string | null | undefined): HTMLElement | null {
  if (!trust) return null;
  return el('span', { className: `chip trust-${trust}` }, t.trustLabels[trust] ?? trust);
}

export function renderDocument(t: ViewStrings, out: GetOutput): HTMLElement {
  const doc = out.document;
  const origin = [doc.kind, doc.ruleId ?? doc.fieldId, doc.layer].filter((part): part is string => Boolean(part)).join(' · ');
  const panel = el(
    'section',
    { className: 'document', attrs: { 'data-document-id': doc.documentId } },
    el('h3', { className: 'document-title' }, doc.title || doc.documentId),
    el('p', { className: 'muted mono' }, doc.documentId),
    el('p', { className: 'muted' }, origin, ' ', trustChip(t, doc.trust), doc.status === 'effective' ? null : el('span', { className: 'chip' }, doc.status)),
  );
  if (doc.description && doc.description !== doc.content) panel.append(el('p', { className: 'description' }, doc.description));
  if (doc.content) panel.append(el('div', { className: 'content' }, doc.content));

  const rows: Node[][] = [];
  if (out.valueLookup) {
    const lookup = out.valueLookup;
    rows.push(field(t.valueLookup, lookup.found ? `${lookup.key} = ${lookup.label ?? ''}` : `${lookup.key} (${t.notFound})`));
  }
  if (out.relations.length > 0) {
    rows.push(field(t.relations, out.relations.map((r) => (r.listPaths.length > 0 ? `${r.name} (${r.listPaths.join(', ')})` : r.name)).join('; ')));
  }
  if (doc.sources.length > 0) rows.push(field(t.sources, doc.sources.join(', ')));
  if (rows.length > 0) panel.append(fieldList(rows));

  if (!out.valueLookup && out.values.length > 0) {
    const table = el('table', { className: 'values' }, el('caption', {}, t.values(out.values.length, out.valueCount)));
    const body = el('tbody');
    for (const v of out.values) body.append(el('tr', {}, el('td', { className: 'mono' }, v.key), el('td', {}, v.label)));
    table.append(body);
    panel.append(table);
  }
  return panel;
}
