/**
 * Definitions across layers by identity: which one wins, which are overridden or disabled, and the
 * order identities take (ARCHITECTURE §3).
 */
import type { DefinitionStatus } from '../runtime/bundle/schema.js';
import type { LoadedLayer } from './load-layers.js';

export type IdentityKind = 'rule' | 'field' | 'relation' | 'rendering';

export interface Definition<T> {
  kind: IdentityKind;
  id: string;
  layer: LoadedLayer;
  item: T;
  status: DefinitionStatus;
  statusReason: string | null;
  /** The definition that directly overrides this one, if any. */
  overrider: Definition<T> | null;
  /** The last definition of this identity across all layers. */
  winner: Definition<T>;
  /** Whether this is the earliest definition of its identity (it fixes the identity's place in order). */
  first: boolean;
}

export function layerDefinitions<T>(
  layers: readonly LoadedLayer[],
  kind: IdentityKind,
  pick: (layer: LoadedLayer) => readonly (readonly [string, T])[],
): Definition<T>[] {
  const all: Definition<T>[] = [];
  const byId = new Map<string, Definition<T>[]>();
  for (const layer of layers) {
    for (const [id, item] of pick(layer)) {
      const chain = byId.get(id) ?? [];
      const def: Definition<T> = {
        kind,
        id,
        layer,
        item,
        status: 'effective',
        statusReason: null,
        overrider: null,
        winner: undefined as unknown as Definition<T>,
        first: chain.length === 0,
      };
      const previous = chain.at(-1);
      if (previous) previous.overrider = def;
      chain.push(def);
      byId.set(id, chain);
      all.push(def);
    }
  }
  for (const chain of byId.values()) {
    const winner = chain.at(-1) as Definition<T>;
    for (const def of chain) {
      def.winner = winner;
      if (def.overrider) {
        def.status = 'overridden';
        def.statusReason = `overridden by ${kind} "${def.id}" of layer "${def.overrider.layer.name}"`;
        continue;
      }
      const disabler = layers.find((l) => l.index > def.layer.index && l.disable.includes(`${kind}:${def.id}`));
      if (disabler) {
        def.status = 'disabled';
        def.statusReason = `disabled by layer "${disabler.name}" (layer.json disable: "${kind}:${def.id}")`;
      }
    }
  }
  return all;
}

export function winnersById<T>(defs: readonly Definition<T>[]): Map<string, Definition<T>> {
  const map = new Map<string, Definition<T>>();
  for (const def of defs) map.set(def.id, def.winner);
  return map;
}

/**
 * Order of identities (ARCHITECTURE §3): for rules, later layers first, each in array order, and an
 * override keeps the place of the definition it overrides. Rendering rules keep layer order
 * (pvfine lets the later rule win ties). Only effective winners are listed.
 */
export function placementOrder<T>(defs: readonly Definition<T>[], direction: 'later-first' | 'earlier-first'): Definition<T>[] {
  const layerIndexes = [...new Set(defs.map((d) => d.layer.index))].sort((a, b) => a - b);
  if (direction === 'later-first') layerIndexes.reverse();
  const out: Definition<T>[] = [];
  for (const index of layerIndexes) {
    for (const def of defs) {
      if (def.layer.index !== index || !def.first) continue;
      if (def.winner.status === 'effective') out.push(def.winner);
    }
  }
  return out;
}
