/**
 * Zod issues as people read them, shared by build/ (one problem per issue, at its JSON path) and
 * runtime/ (one message listing the issues), so a bad key reads the same in a rule file and in a bundle.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/**
 * Issues listed in one message. Counting the rest, rather than cutting the text, keeps a message about
 * a document that is wrong everywhere short without ending it in the middle of a path.
 */
export const MAX_LISTED_ISSUES = 10;

/** `$`, `$.rules[3].target`, `$.values["a b"]`: the path of an issue as JSON tools write it. */
export function formatJsonPath(segments: readonly PropertyKey[]): string {
  let out = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

/**
 * One issue without its path. zod's own wording names what it received (`Invalid input: expected
 * string, received number`); what was expected is what the reader has to fix. `unknownKeyAdvice`
 * follows the names of unknown keys, for readers who need to know why a key is refused.
 */
export function describeIssue(issue: Issue, unknownKeyAdvice = 'remove it or fix its spelling'): string {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    return `unknown key ${keys}: ${unknownKeyAdvice}`;
  }
  if (issue.code === 'invalid_type') {
    if (issue.expected === 'object' || issue.expected === 'array') return `expected ${article(issue.expected)} ${issue.expected}`;
    return issue.message.startsWith('Invalid input') ? `expected ${issue.expected}` : issue.message;
  }
  return issue.message;
}

/** The issues as one line, `$.limit: Too small: …; $: unknown key "x": …`, the first `max` of them. */
export function formatIssues(issues: readonly Issue[], max = MAX_LISTED_ISSUES): string {
  const listed = issues.slice(0, max).map((issue) => `${formatJsonPath(issue.path)}: ${describeIssue(issue)}`);
  if (issues.length > max) listed.push(`and ${issues.length - max} more`);
  return listed.join('; ');
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
