/**
 * Explain with pvfdoc's target extensions, on the small layer test/fixtures/layers/target-extensions:
 * `target.topLevel` (the tokens before the first section, as one section's direct tokens),
 * `target.sectionPattern` (section names by Go path.Match pattern, case-insensitive), and path links
 * that resolve relative to the explained file's folder when the pvfine candidate does not exist.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledBundle } from '../../support/compiled-bundle.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { annotateScript, type ExplainAnnotation } from '../../../runtime/explain/annotate-script.js';

const LAYER = fileURLToPath(new URL('../../fixtures/layers/target-extensions/', import.meta.url));

let bundle: Bundle;
beforeAll(async () => {
  bundle = await compiledBundle([LAYER]);
});

/** Files of the pretend archive (as stored; looked up case-insensitively like a workspace). */
const FILES = [
  'passiveobject/box/action/break.act',
  'passiveobject/box/Animation/break.ani',
  'passiveobject/box/action/Animation/local.ani',
  'passiveobject/common/shared.ani',
  'Animation/root.ani',
  'map/forest/room1.map',
  'town/forest/only.map',
  'top.ani',
];
const lookedUp: string[] = [];
function resolvePath(archivePath: string): string | null {
  lookedUp.push(archivePath);
  return FILES.find((f) => f.toLowerCase() === archivePath.toLowerCase()) ?? null;
}

function explain(filePath: string, lines: string[], withPaths = true): ExplainAnnotation[] {
  return annotateScript({
    bundle,
    versionKey: '',
    filePath,
    text: `${lines.join('\n')}\n`,
    ...(withPaths ? { resolvePath } : {}),
  }).annotations;
}

const brief = (a: ExplainAnnotation) => `${a.section ?? '-'}#${a.occurrence ?? '-'} tok${a.tokenIndex ?? '-'} ${a.value ?? ''} ${a.title} [${a.ruleIds.join(',')}]`;

describe('target.topLevel', () => {
  it('annotates .lst rows (id, path) before any section; section and occurrence null, tokenIndex counts from 0', () => {
    const out = explain('monster/monster.lst', ['#PVF_File', '1\t`goblin.mob`', '2\t`orc.mob`', '3']);
    expect(out.map(brief)).toEqual([
      '-#- tok0 1 注册表 ID [lst.id]',
      '-#- tok1 goblin.mob 文件 [lst.path]',
      '-#- tok2 2 注册表 ID [lst.id]',
      '-#- tok3 orc.mob 文件 [lst.path]',
      // A trailing incomplete record is not a record.
    ]);
    expect(out[0]).toMatchObject({ section: null, occurrence: null, tokenIndex: 0, recordIndex: 0 });
    expect(out[2]).toMatchObject({ tokenIndex: 2, recordIndex: 1 });
  });

  it('only the tokens before the first section count; section tokens keep their own indexes', () => {
    const out = explain('monster/monster.lst', ['1\t`a.mob`', '[name]', '2\t`b.mob`']);
    expect(out.map(brief)).toEqual(['-#- tok0 1 注册表 ID [lst.id]', '-#- tok1 a.mob 文件 [lst.path]']);
  });

  it('columns and range work on them too (.dat)', () => {
    const out = explain('skill/rdarkeyindex.dat', ['0\t`X`', '1\t`Z`']);
    expect(out.map(brief)).toEqual([
      // The range starts on token 0 too, but is its own span.
      '-#- tok0 0 编号 1 [dat.cols]',
      '-#- tok0  前两个 [dat.first]',
      '-#- tok1 X 键 [dat.cols]',
      '-#- tok2 1 编号 2 [dat.cols]',
      '-#- tok3 Z 键 [dat.cols]',
    ]);
    expect(out[1]).toMatchObject({ tokenIndex: 0, lastTokenIndex: 1, value: null });
  });

  it('a file without top-level tokens gets nothing', () => {
    expect(explain('monster/monster.lst', ['[name]', '1\t`a.mob`'])).toEqual([]);
  });
});

describe('target.sectionPattern', () => {
  it('section targets: every name that fits, case-insensitively, each with its own occurrence', () => {
    const out = explain('x/a.ani', ['[FRAME MAX]', '3', '[FRAME000]', '[frame001]', '[FRAME1000]', '[FRAMES]', '[FRAME00x]', '[FRAME002]']);
    expect(out.filter((a) => a.tokenIndex === null).map((a) => `${a.section}#${a.occurrence} ${a.title}`)).toEqual([
      'FRAME000#0 帧',
      'frame001#0 帧',
      'FRAME002#0 帧',
    ]);
  });

  it('token targets: * and case-insensitivity; parent still applies', () => {
    const out = explain('x/a.ani', ['[DELAY]', '100', '[attack delay]', '5', '[DELAYED]', '7', '[group]', '[DELAY]', '9', '[/group]']);
    expect(out.map(brief)).toEqual(['DELAY#0 tok0 100 延迟 [ani.delay]', 'attack delay#0 tok0 5 延迟 [ani.delay]', 'DELAY#1 tok0 9 延迟 [ani.delay,ani.group-delay]']);
  });
});

describe('path links relative to the explained file', () => {
  const link = (filePath: string, value: string, withPaths = true) =>
    explain(filePath, ['[BASE ANI]', `\`${value}\``], withPaths).find((a) => a.ruleIds.includes('act.base-ani'))?.pathLink;

  it('the pvfine candidate (from the archive root) wins when it exists', () => {
    expect(link('passiveobject/box/action/break.act', 'animation/root.ani')).toEqual({
      root: '',
      value: 'animation/root.ani',
      path: 'Animation/root.ani',
      resolutionStatus: 'resolved',
    });
  });

  it('else the value relative to the file folder, with ".." resolved, as the archive spells it', () => {
    expect(link('passiveobject/box/action/break.act', 'animation/local.ani')).toEqual({
      root: '',
      value: 'animation/local.ani',
      path: 'passiveobject/box/action/Animation/local.ani',
      resolutionStatus: 'resolved',
      relativeToFile: true,
    });
    expect(link('passiveobject/box/action/break.act', '../animation/break.ani')).toMatchObject({
      path: 'passiveobject/box/Animation/break.ani',
      relativeToFile: true,
    });
    expect(link('PassiveObject\\box\\action\\break.act', '..\\..\\common\\.\\shared.ani')).toMatchObject({
      path: 'passiveobject/common/shared.ani',
      resolutionStatus: 'resolved',
    });
  });

  it('never above the archive root; a missing link shows the pvfine candidate', () => {
    lookedUp.length = 0;
    expect(link('a/b.act', '../../top.ani')).toEqual({ root: '', value: '../../top.ani', path: '../../top.ani', resolutionStatus: 'missing' });
    expect(lookedUp).toEqual([]);
    // From a/, "../top.ani" is top.ani at the root: allowed (it does not leave the archive).
    expect(link('a/b.act', '../top.ani')).toMatchObject({ path: 'top.ani', resolutionStatus: 'resolved', relativeToFile: true });
    expect(link('passiveobject/box/action/break.act', 'animation/nothing.ani')).toEqual({
      root: '',
      value: 'animation/nothing.ani',
      path: 'animation/nothing.ani',
      resolutionStatus: 'missing',
    });
  });

  it('the pathRoot candidate comes first; the file-relative one ignores pathRoot', () => {
    const map = (value: string) => explain('town/town.twn', ['[area]', `\`${value}\``]).find((a) => a.ruleIds.includes('twn.map'))?.pathLink;
    expect(map('forest/room1.map')).toEqual({ root: 'map', value: 'forest/room1.map', path: 'map/forest/room1.map', resolutionStatus: 'resolved' });
    // map/forest/only.map does not exist; town/forest/only.map (beside town/town.twn) does.
    expect(map('forest/only.map')).toMatchObject({ root: 'map', path: 'town/forest/only.map', relativeToFile: true });
    // A ".." that pathRoot absorbs is the pvfine candidate: map/../town/… = town/….
    expect(map('../town/forest/only.map')).toEqual({ root: 'map', value: '../town/forest/only.map', path: 'town/forest/only.map', resolutionStatus: 'resolved' });
  });

  it('an empty path token has no link at all; without a resolver links stay unsupported', () => {
    const [empty] = explain('passiveobject/box/action/break.act', ['[BASE ANI]', '``']);
    expect(empty).toMatchObject({ type: 'path', value: '', title: '基础动画' });
    expect(empty?.pathLink).toBeUndefined();
    expect(link('passiveobject/box/action/break.act', 'animation/local.ani', false)).toEqual({
      root: '',
      value: 'animation/local.ani',
      path: 'animation/local.ani',
      resolutionStatus: 'unsupported',
    });
  });
});
