/**
 * The one zod-issue formatter of build/ and runtime/: JSON paths, the wording of an issue, and a
 * message that lists at most MAX_LISTED_ISSUES issues instead of being cut at a character count.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssue, formatIssues, formatJsonPath, MAX_LISTED_ISSUES } from '../../../runtime/bundle/format-issues.js';

function issuesOf(schema: z.ZodType, value: unknown): z.core.$ZodIssue[] {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected the value to be refused');
  return result.error.issues;
}

describe('formatJsonPath', () => {
  it('writes identifiers with a dot, indexes and other keys in brackets', () => {
    expect(formatJsonPath([])).toBe('$');
    expect(formatJsonPath(['rules', 3, 'target', 'kind'])).toBe('$.rules[3].target.kind');
    expect(formatJsonPath(['values', 'a b', '-1', '$x'])).toBe('$.values["a b"]["-1"].$x');
  });
});

describe('describeIssue', () => {
  it('says what was expected, not what was received', () => {
    const [wrongType] = issuesOf(z.strictObject({ a: z.string() }), { a: 1 });
    expect(describeIssue(wrongType as z.core.$ZodIssue)).toBe('expected string');
    const [notObject] = issuesOf(z.strictObject({ a: z.string() }), []);
    expect(describeIssue(notObject as z.core.$ZodIssue)).toBe('expected an object');
    const [custom] = issuesOf(z.string('expected a string'), 1);
    expect(describeIssue(custom as z.core.$ZodIssue)).toBe('expected a string');
  });

  it('names unknown keys, followed by the advice the caller gives', () => {
    const [unknown] = issuesOf(z.strictObject({}), { x: 1, y: 2 }) as [z.core.$ZodIssue];
    expect(describeIssue(unknown)).toBe('unknown key "x", "y": remove it or fix its spelling');
    expect(describeIssue(unknown, 'pvfine allows none')).toBe('unknown key "x", "y": pvfine allows none');
  });
});

describe('formatIssues', () => {
  it('lists every issue at its path on one line', () => {
    const issues = issuesOf(z.strictObject({ limit: z.int().min(1), name: z.string() }), { limit: 0, name: 5, extra: true });
    expect(formatIssues(issues)).toBe('$.limit: Too small: expected number to be >=1; $.name: expected string; $: unknown key "extra": remove it or fix its spelling');
  });

  it(`lists the first ${MAX_LISTED_ISSUES} issues and counts the rest, however long the text`, () => {
    const issues = issuesOf(z.array(z.string()), Array.from({ length: 25 }, (_, i) => i));
    const message = formatIssues(issues);
    expect(message.split('; ')).toHaveLength(MAX_LISTED_ISSUES + 1);
    expect(message).toMatch(/^\$\[0\]: expected string; /);
    expect(message).toMatch(/; \$\[9\]: expected string; and 15 more$/);
    const long = formatIssues(issuesOf(z.strictObject({}), { [`k${'x'.repeat(400)}`]: 1 }));
    expect(long.length).toBeGreaterThan(400);
    expect(long.endsWith('": remove it or fix its spelling')).toBe(true);
  });
});
