/**
 * Which sections nest inside which, for one file, from the rendering rules (rule-format §3.5). The
 * script view takes the answer as a predicate, so the bottom layer never sees a bundle.
 */
import type { RenderingRule } from '../bundle/schema.js';
import { matchesDefinition } from '../script/match-glob.js';
import { foldSectionName, type AllowNested } from '../script/parse-script-view.js';
import { trimSpace } from '../script/trim-space.js';

/**
 * The `allowNested` predicate for one file from the rendering rules (§3.5): for a parent section, the
 * winning section-scoped rule among those whose match fits the file — specificity +1 for extensions and
 * +1 for a non-blank glob, highest wins, ties go to the later rule — says yes when its
 * `format.nestedSections` lists the child (names compared case-insensitively, trimmed). Only rules with
 * status `effective` count. A winning rule without `nestedSections` nests nothing, even when a weaker
 * rule lists the child.
 */
export function createNestedSectionPredicate(renderingRules: readonly RenderingRule[], filePath: string): AllowNested {
  const candidates = renderingRules
    .map((rule, order) => ({ rule, order, specificity: specificityOf(rule) }))
    .filter(({ rule }) => rule.status === 'effective' && rule.target.kind === 'section' && renderingRuleMatches(rule, filePath));
  const byParent = new Map<string, ReadonlySet<string> | null>();
  const nestedOf = (parent: string): ReadonlySet<string> | null => {
    const key = foldSectionName(trimSpace(parent));
    const cached = byParent.get(key);
    if (cached !== undefined) return cached;
    let best: (typeof candidates)[number] | undefined;
    for (const candidate of candidates) {
      if (foldSectionName(trimSpace(candidate.rule.target.section ?? '')) !== key) continue;
      if (best && (candidate.specificity < best.specificity || (candidate.specificity === best.specificity && candidate.order < best.order))) continue;
      best = candidate;
    }
    const names = best?.rule.format.nestedSections;
    const nested = names ? new Set(names.map((name) => foldSectionName(trimSpace(name)))) : null;
    byParent.set(key, nested);
    return nested;
  };
  // The view passes one string per spelling, so most calls are answered from this map.
  const bySpelling = new Map<string, ReadonlySet<string> | null>();
  return (parent, child) => {
    let nested = bySpelling.get(parent);
    if (nested === undefined) {
      nested = nestedOf(parent);
      bySpelling.set(parent, nested);
    }
    return nested !== null && nested.has(foldSectionName(trimSpace(child)));
  };
}

// --- Internal helpers ---

function specificityOf(rule: RenderingRule): number {
  return (rule.match.extensions.length > 0 ? 1 : 0) + (rule.match.glob.trim() !== '' ? 1 : 0);
}

/** pvfine's rendering match trims extensions and the glob before comparing. */
function renderingRuleMatches(rule: RenderingRule, filePath: string): boolean {
  return matchesDefinition({ extensions: rule.match.extensions.map((e) => e.trim()), glob: rule.match.glob.trim() }, filePath, false);
}
