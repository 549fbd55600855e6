import { describe, expect, it } from 'vitest';
import type { TargetSpec } from '../../../runtime/bundle/schema.js';
import { computeAnchors, type Anchor, type AnchorOptions } from '../../../runtime/explain/compute-anchors.js';
import { parseScriptView } from '../../../runtime/script/parse-script-view.js';

function target(partial: Partial<TargetSpec>): TargetSpec {
  return {
    kind: 'token',
    section: 's',
    index: null,
    range: null,
    offset: null,
    groupOffset: null,
    standaloneValues: null,
    recordTokens: null,
    tokensPerLineIndex: null,
    contextIndex: null,
    imagePathToken: null,
    parent: null,
    notInside: null,
    topLevel: false,
    sectionPattern: null,
    when: null,
    countedGroups: null,
    variableRecords: null,
    after: null,
    ...partial,
  };
}

const TEXT: AnchorOptions = { annotationType: 'text' };

function anchorsOf(text: string, spec: Partial<TargetSpec>, options: AnchorOptions = TEXT): Anchor[] {
  return computeAnchors(parseScriptView(text), target(spec), options);
}

function values(anchors: readonly Anchor[]): (string | null)[] {
  return anchors.map((a) => a.value);
}

describe('computeAnchors: section targets', () => {
  it('anchors every occurrence, case-insensitively and at any depth, on the opening tag', () => {
    const anchors = anchorsOf('[Cool Time] 1 [x] [cool time] 2 [/x]', { kind: 'section', section: 'cool time' });
    expect(anchors.map((a) => [a.start, a.end, a.section, a.occurrence, a.tokenIndex, a.value])).toEqual([
      [0, 11, 'Cool Time', 0, null, null],
      [18, 29, 'cool time', 1, null, null],
    ]);
  });
});

describe('computeAnchors: token index', () => {
  it('anchors direct token `index` of every occurrence', () => {
    const anchors = anchorsOf('[s] 1 2 [t] 3 [s] 4 5 [s] 6', { index: 1 });
    expect(anchors.map((a) => [a.value, a.occurrence, a.tokenIndex, a.recordIndex])).toEqual([
      ['2', 0, 1, null],
      ['5', 1, 1, null],
    ]);
  });

  it('does not count the tokens of a nested child section', () => {
    expect(values(anchorsOf('[s] 1 [c] 2 [/c] 3 [/s]', { index: 1 }))).toEqual(['3']);
  });
});

describe('computeAnchors: token range', () => {
  it('spans from the first to the last token in range, per occurrence, value-less', () => {
    const anchors = anchorsOf('[s] 10 20 30 40 [s] 50', { range: { start: 1, endExclusive: 3 } });
    expect(anchors.map((a) => [a.start, a.end, a.tokenIndex, a.lastTokenIndex, a.value])).toEqual([[7, 12, 1, 2, null]]);
  });

  it('anchors a partial range and skips occurrences with no token in range', () => {
    const anchors = anchorsOf('[s] 10 20 [s] 30', { range: { start: 1, endExclusive: 9 } });
    expect(anchors.map((a) => [a.start, a.end])).toEqual([[7, 9]]);
  });
});

describe('computeAnchors: repeated records (§2.3 worked examples)', () => {
  it('applies offset, sentinel split, groupOffset and complete records only', () => {
    const text = '[s] 999 10 100 200 300 -1 20 400 500 -1 -1 30 600 700 800';
    const anchors = anchorsOf(text, { index: 0, recordTokens: 2, offset: 1, groupOffset: 1, standaloneValues: [-1] });
    expect(values(anchors)).toEqual(['100', '400', '600']);
    expect(anchors.map((a) => a.recordIndex)).toEqual([0, 1, 2]);
    expect(anchors.map((a) => a.tokenIndex)).toEqual([2, 7, 12]);
  });

  it('takes a dynamic width from tokensPerLineIndex (absolute, independent of offset)', () => {
    const anchors = anchorsOf('[s] 2 100 200 300 400 500', { index: 1, recordTokens: 3, offset: 1, tokensPerLineIndex: 0 });
    expect(values(anchors)).toEqual(['200', '400']);
  });

  it('falls back to recordTokens when the width token is not a positive integer', () => {
    expect(values(anchorsOf('[s] 0 1 2 3 4 5 6', { index: 0, recordTokens: 3, offset: 1, tokensPerLineIndex: 0 }))).toEqual(['1', '4']);
    expect(values(anchorsOf('[s] 2.5 1 2 3', { index: 0, recordTokens: 3, offset: 1, tokensPerLineIndex: 0 }))).toEqual(['1']);
    expect(values(anchorsOf('[s] 1 2', { index: 0, recordTokens: 1, tokensPerLineIndex: 9 }))).toEqual(['1', '2']);
  });

  it('reads the width from a string token too, as pvfine trims and parses any token value', () => {
    expect(values(anchorsOf('[s] ` 2 ` 1 2 3 4', { index: 0, recordTokens: 1, offset: 1, tokensPerLineIndex: 0 }))).toEqual(['1', '3']);
  });

  it('skips every record when a dynamic width leaves the index outside the record', () => {
    expect(anchorsOf('[s] 1 5 6 7', { index: 2, recordTokens: 3, offset: 1, tokensPerLineIndex: 0 })).toEqual([]);
  });

  it('splits only at integer tokens: a quoted `-1` and a float -1.0 are data (quoted-sentinel test)', () => {
    const anchors = anchorsOf('[s] `-1` 5 -1 10 20', { index: 0, recordTokens: 2, standaloneValues: [-1] });
    expect(anchors.map((a) => [a.value, a.start, a.end])).toEqual([
      ['-1', 4, 8],
      ['10', 14, 16],
    ]);
    expect(values(anchorsOf('[s] -1.0 5 -1 10 20', { index: 0, recordTokens: 2, standaloneValues: [-1] }))).toEqual(['-1', '10']);
  });

  it('makes empty groups of consecutive sentinels and applies groupOffset to each group', () => {
    const anchors = anchorsOf('[world drop] 1 2 100 5 200 6 -1 -1 3 4 300 7 -1', {
      section: 'world drop',
      index: 0,
      recordTokens: 2,
      groupOffset: 2,
      standaloneValues: [-1],
    });
    expect(values(anchors)).toEqual(['100', '200', '300']);
  });

  it('restarts record numbering in every section occurrence', () => {
    const anchors = anchorsOf('[s] 1 2 3 4 [s] 5 6', { index: 1, recordTokens: 2 });
    expect(anchors.map((a) => [a.value, a.occurrence, a.recordIndex])).toEqual([
      ['2', 0, 0],
      ['4', 0, 1],
      ['6', 1, 0],
    ]);
  });

  it('reads the image path token of image rules and anchors the index token', () => {
    const anchors = anchorsOf('[s] `a.img` 3 `b.img` 4', { index: 1, recordTokens: 2, imagePathToken: 0 }, { annotationType: 'image' });
    expect(anchors.map((a) => [a.value, a.imagePath])).toEqual([
      ['3', 'a.img'],
      ['4', 'b.img'],
    ]);
    // Not an image rule: the path token is not read.
    expect(anchorsOf('[s] `a.img` 3', { index: 1, recordTokens: 2, imagePathToken: 0 })[0]?.imagePath).toBeNull();
  });

  it('reads the context from contextIndex, else from the contextual relation contextToken', () => {
    const text = '[s] `[fighter]` 5 1 `[mage]` 9 2';
    expect(anchorsOf(text, { index: 1, recordTokens: 3, contextIndex: 0 }).map((a) => a.context)).toEqual(['[fighter]', '[mage]']);
    expect(anchorsOf(text, { index: 1, recordTokens: 3 }, { annotationType: 'reference', contextToken: 0 }).map((a) => a.context)).toEqual(['[fighter]', '[mage]']);
    expect(anchorsOf(text, { index: 1, recordTokens: 3, contextIndex: 2 }, { annotationType: 'reference', contextToken: 0 }).map((a) => a.context)).toEqual(['1', '2']);
    expect(anchorsOf(text, { index: 1, recordTokens: 3 }).map((a) => a.context)).toEqual([null, null]);
  });

  it('skips records whose context index falls outside a dynamic width', () => {
    expect(anchorsOf('[s] 1 7 8', { index: 0, recordTokens: 3, offset: 1, tokensPerLineIndex: 0, contextIndex: 2 })).toEqual([]);
  });
});

describe('computeAnchors: nothing to anchor', () => {
  it('returns no anchors for path targets, unknown sections or a token target without index or range', () => {
    expect(anchorsOf('[s] 1', { kind: 'path' })).toEqual([]);
    expect(anchorsOf('[s] 1', { section: 'other', index: 0 })).toEqual([]);
    expect(anchorsOf('[s] 1', {})).toEqual([]);
    expect(anchorsOf('1 2', { section: '', index: 0 })).toEqual([]);
  });
});
