/**
 * `pvf_annotation_get` over a bundle (protocol: 文档详情; protocol-notes: Get).
 */
import type { Bundle } from '../bundle/load-bundle.js';
import type { BundleRelation } from '../bundle/schema.js';
import { bindingHash, checkOffset, decodeCursor, encodeCursor, type CursorKey } from '../bundle/cursor.js';
import { PvfdocError } from '../errors.js';
import { DEFAULT_VALUES_LIMIT, MAX_GET_RESPONSE_BYTES, type GetInput, type GetOutput, type GetRelation } from './get-schema.js';

export const GET_TOOL = 'pvf_annotation_get';

function checkRulesRevision(bundle: Bundle, rulesRevision: string | undefined): void {
  if (rulesRevision !== undefined && rulesRevision !== '' && rulesRevision !== bundle.rulesRevision) {
    throw new PvfdocError('STALE_RULES', `rulesRevision ${rulesRevision} is not the active snapshot ${bundle.rulesRevision}`, {
      hint: 'The rules changed since that search: search again and use the new documentIds.',
      data: { rulesRevision: bundle.rulesRevision },
    });
  }
}

export function getDocument(bundle: Bundle, input: GetInput, options: { cursorKey?: CursorKey } = {}): GetOutput {
  checkRulesRevision(bundle, input.rulesRevision);
  const doc = bundle.documentsById.get(input.documentId);
  if (!doc) {
    throw new PvfdocError('DOCUMENT_NOT_FOUND', `no document ${input.documentId} in rules snapshot ${bundle.rulesRevision}`, {
      hint: 'documentIds belong to one snapshot: take one from a pvf_annotation_search of the active rulesRevision.',
      data: { rulesRevision: bundle.rulesRevision },
    });
  }
  const all = bundle.valuesOf(doc.documentId);
  const limit = input.valuesLimit ?? DEFAULT_VALUES_LIMIT;
  const binding = bindingHash({ documentId: doc.documentId });
  const offset = input.valuesCursor
    ? checkOffset(decodeCursor(input.valuesCursor, { tool: GET_TOOL, rulesRevision: bundle.rulesRevision, binding }, options.cursorKey), all.length)
    : 0;
  const page = all.slice(offset, offset + limit).map(([key, label]) => ({ key, label }));
  const next = offset + limit < all.length
    ? encodeCursor({ tool: GET_TOOL, rulesRevision: bundle.rulesRevision, binding, offset: offset + limit }, options.cursorKey)
    : null;
  let valueLookup: GetOutput['valueLookup'] = null;
  if (input.value !== undefined) {
    // First entry wins, as a JSON object with a repeated key keeps one; keys compare as exact strings.
    const hit = all.find(([key]) => key === input.value);
    valueLookup = { key: input.value, found: hit !== undefined, label: hit ? hit[1] : null };
  }

  const output: GetOutput = {
    schemaVersion: 1,
    rulesRevision: bundle.rulesRevision,
    document: {
      documentId: doc.documentId,
      kind: doc.kind,
      ruleId: doc.kind === 'rule' ? doc.id : null,
      fieldId: doc.fieldId,
      origin: doc.origin,
      layer: doc.layer,
      source: doc.source,
      sourcePointer: doc.sourcePointer,
      group: doc.group,
      description: doc.description,
      title: doc.title,
      content: doc.content,
      pvfVersions: doc.pvfVersions,
      status: doc.status,
      statusReason: doc.statusReason,
      overriddenBy: doc.overriddenBy,
      versions: doc.versions,
      trust: doc.trust,
      sources: doc.sources,
    },
    definitionsOmitValues: true,
    rawDefinition: doc.raw,
    resolvedDefinition: doc.resolved,
    preview: doc.resolved.preview ?? fieldPreview(bundle, doc.fieldId),
    valueCount: all.length,
    values: page,
    valuesNextCursor: next,
    valueLookup,
    // A relation named on a non-reference rule is still shown: search's relation filter finds it too.
    relations: referencedRelations(bundle, doc.relation),
  };
  const bytes = Buffer.byteLength(JSON.stringify(output));
  if (bytes > MAX_GET_RESPONSE_BYTES) {
    throw new PvfdocError('RESPONSE_TOO_LARGE', `document ${doc.documentId} is ${bytes} bytes, over the ${MAX_GET_RESPONSE_BYTES}-byte response limit`, {
      hint: 'Ask for fewer values with valuesLimit; a definition is never returned cut short.',
      data: { bytes, limit: MAX_GET_RESPONSE_BYTES },
    });
  }
  return output;
}

/** The preview spec of the effective shared field a rule uses (previews live on fields). */
function fieldPreview(bundle: Bundle, fieldId: string | null): GetOutput['preview'] {
  if (fieldId === null) return null;
  // The winning definition of the field decides, even when it has no preview (an override may drop it).
  const definitions = bundle.documents.filter((doc) => doc.kind === 'field' && doc.id === fieldId);
  const winner = definitions.find((doc) => doc.status === 'effective') ?? definitions.at(-1);
  return winner?.resolved.preview ?? null;
}

/** The relation a document refers to plus, for a union, every member it reaches. */
function referencedRelations(bundle: Bundle, name: string | null): GetRelation[] {
  if (name === null) return [];
  const out: GetRelation[] = [];
  const seen = new Set<string>();
  const visit = (relationName: string) => {
    if (seen.has(relationName)) return;
    seen.add(relationName);
    const relation = bundle.relationsByName.get(relationName);
    if (!relation) return;
    out.push(toGetRelation(bundle, relation));
    for (const member of relation.members ?? []) visit(member);
  };
  visit(name);
  return out;
}

function toGetRelation(bundle: Bundle, relation: BundleRelation): GetRelation {
  const needsContext = (r: BundleRelation, depth: number): boolean =>
    r.kind === 'contextual' ||
    (r.kind === 'union' && depth < 32 && r.resolvedMembers.some((m) => {
      const member = bundle.relationsByName.get(m);
      return member !== undefined && needsContext(member, depth + 1);
    }));
  return {
    name: relation.name,
    kind: relation.kind,
    status: relation.status,
    statusReason: relation.statusReason,
    layer: relation.layer,
    source: relation.source,
    listPath: relation.listPath,
    idToken: relation.idToken,
    pathToken: relation.pathToken,
    recordTokens: relation.recordTokens,
    effectiveRecordTokens: relation.effectiveRecordTokens,
    nameSection: relation.nameSection,
    contextRequired: needsContext(relation, 0),
    contextToken: relation.contextToken,
    contextPaths: relation.contextPaths ? relation.contextPaths.map(([context, listPath]) => ({ context, listPath })) : null,
    members: relation.members,
    resolvedMembers: relation.resolvedMembers,
    listPaths: relation.listPaths,
    problems: relation.problems,
  };
}
