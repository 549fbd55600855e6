/**
 * Relations of the winning definitions: union members flattened in lookup order, problems recorded,
 * and every .lst path a lookup may read.
 */
import type { BundleRelation, RelationProblem } from '../runtime/bundle/schema.js';
import type { Definition } from './layer-definitions.js';
import { listPathCandidates } from '../runtime/references/resolve-references.js';
import type { RelationItem } from './load-layers.js';

export function resolveRelations(
  defs: readonly Definition<RelationItem>[],
  winners: Map<string, Definition<RelationItem>>,
): BundleRelation[] {
  /** Non-union relations reachable from `name`, in lookup order, and the .lst paths they read. */
  const flatten = (name: string, stack: string[], problems: RelationProblem[]): { members: string[]; paths: string[] } => {
    const def = winners.get(name);
    const none = { members: [], paths: [] };
    if (!def) {
      problems.push({ kind: 'missing', member: name, message: `member relation "${name}" is not defined` });
      return none;
    }
    if (def.status !== 'effective') {
      problems.push({ kind: 'disabled', member: name, message: `member relation "${name}" is ${def.status}; lookups skip it` });
      return none;
    }
    if (stack.includes(name)) {
      problems.push({ kind: 'cycle', member: name, message: `relation cycle: ${[...stack, name].join(' → ')}` });
      return none;
    }
    const input = def.item.input;
    if (input.kind === 'union') {
      const out = { members: [] as string[], paths: [] as string[] };
      for (const member of input.relations ?? []) {
        const sub = flatten(member, [...stack, name], problems);
        for (const m of sub.members) if (!out.members.includes(m)) out.members.push(m);
        for (const p of sub.paths) if (!out.paths.includes(p)) out.paths.push(p);
      }
      return out;
    }
    const configured = input.kind === 'contextual' ? (def.item.contextPaths ?? []).map(([, p]) => p) : [input.listPath ?? ''];
    const paths: string[] = [];
    for (const p of configured) for (const candidate of listPathCandidates(p)) if (!paths.includes(candidate)) paths.push(candidate);
    return { members: [name], paths };
  };

  return defs.map((def) => {
    const input = def.item.input;
    const kind = input.kind === 'contextual' || input.kind === 'union' ? input.kind : 'list';
    const problems: RelationProblem[] = [];
    const flat = def.status === 'effective' ? flatten(def.id, [], problems) : { members: [], paths: [] };
    const idToken = input.idToken ?? 0;
    const pathToken = input.pathToken ?? 0;
    return {
      name: def.id,
      layer: def.layer.name,
      layerIndex: def.layer.index,
      source: def.layer.kind,
      sourcePointer: `${def.item.file}#${def.item.path}`,
      status: def.status,
      statusReason: def.statusReason,
      kind,
      listPath: input.listPath ?? null,
      idToken,
      pathToken,
      recordTokens: input.recordTokens ?? null,
      effectiveRecordTokens: input.recordTokens && input.recordTokens > 0 ? input.recordTokens : Math.max(idToken, pathToken) + 1,
      nameSection: input.nameSection ?? null,
      contextToken: input.contextToken ?? null,
      contextPaths: def.item.contextPaths,
      members: input.relations ?? null,
      resolvedMembers: kind === 'union' ? flat.members : [],
      listPaths: flat.paths,
      problems,
      raw: JSON.parse(JSON.stringify(def.item.raw ?? null)) as BundleRelation['raw'],
    };
  });
}
