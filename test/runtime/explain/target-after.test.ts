/**
 * Explain with pvfdoc's `target.after`: a section read by the section opened right before it, as for
 * commands written on one line ([SET ACTION] [DAMAGE] against [TRIGGER CHECK] [DAMAGE] 1 3 [ON]).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { annotateScript } from '../../../runtime/explain/annotate-script.js';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { writeRuleLayer } from '../../support/rule-layer.js';
import { removeTempDirs } from '../../support/temp-dirs.js';

let bundle: Bundle;
const rule = (id: string, title: string, target: Record<string, unknown>) => ({ id, match: { extensions: ['.act'] }, target, annotation: { title, type: 'text' } });

beforeAll(async () => {
  bundle = await compiledBundle([
    await writeRuleLayer([
      rule('damage.block', '受击动作块', { kind: 'section', section: 'damage', after: ['set action'] }),
      rule('damage.trigger', '受击动作序号', { kind: 'token', section: 'damage', index: 0, after: ['Trigger Check', 'trigger'] }),
    ]),
  ]);
});
afterAll(removeTempDirs);

function explain(text: string): string[] {
  return annotateScript({ bundle, versionKey: '', filePath: 'monster/a.act', text }).annotations.map((a) => `${a.start.line}:${a.tokenIndex ?? 'tag'} ${a.title}`);
}

describe('target.after', () => {
  it('reads a section by the one opened right before it, case-insensitively, at any depth', () => {
    const text = '[SET ACTION]\n[DAMAGE]\n\t[DIRECTION]\n[TRIGGER CHECK]\n[DAMAGE]\n\t1\t3\n[ON]\n[BEHAVIOR]\n\t[TRIGGER]\n\t[damage]\n\t\t2\t1\n[/BEHAVIOR]\n[DAMAGE]\n\t5\n';
    expect(explain(text)).toEqual(['2:tag 受击动作块', '6:0 受击动作序号', '11:0 受击动作序号']);
  });

  it('a section with nothing before it, or the wrong one, gets nothing', () => {
    expect(explain('[DAMAGE]\n\t1\n[NOW]\n[DAMAGE]\n\t2\n')).toEqual([]);
  });
});
