/**
 * The drawing of a rule's token layout (rule-format §2.3): the section's direct tokens as boxes, with
 * the tokens skipped by `offset`, the sentinel tokens that split groups, the tokens skipped at the start
 * of every group, records of the record width, and the targeted, context and image-path tokens marked.
 * Pure data; site/src/components/LayoutDrawing.astro draws it. Long runs are cut with a gap box, so a
 * drawing stays small whatever the numbers.
 *
 * pvfdoc's format extensions are drawn too: where the section must sit (`parent`, `notInside`), the
 * files a rule applies to (`when`: conditions on another section's value), the
 * values with a fixed meaning (`sentinels`) and the column titles of `columns` rules (every token of a
 * record is a target, captioned with its column's title), the tokens before the first section
 * (`topLevel`: the header box is the file start, not a section tag) and section-name patterns
 * (`sectionPattern`: the header shows the pattern).
 */
import type { BundleDocument, BundleRelation, CountedGroups, TargetSpec, VariableRecords, WhenCondition } from '../../../runtime/bundle/schema.js';

export type BoxRole = 'header' | 'skip' | 'group-skip' | 'sentinel' | 'token' | 'target' | 'gap' | 'end';
export type BoxMark = 'context' | 'image-path' | 'width';

export interface LayoutBox {
  role: BoxRole;
  /** Where the token is: "#5" (direct-token index in the section) and/or "[1]" (index in its record). */
  position: string;
  /** Short caption under the position. */
  caption: string;
  marks: BoxMark[];
}

export interface LayoutSegment {
  /** What the run of boxes is: "偏移", "组 1", "记录 1", ... */
  caption: string;
  kind: 'section' | 'offset' | 'group' | 'record' | 'plain' | 'sentinel';
  boxes: LayoutBox[];
  /** Records inside a group. */
  children?: LayoutSegment[];
}

export interface LayoutFact {
  label: string;
  value: string;
}

export interface LayoutDrawing {
  mode: 'path' | 'section' | 'index' | 'range' | 'records' | 'columns' | 'none';
  section: string | null;
  /** What the target addresses: one section name, a name pattern, or the tokens before any section. */
  where: 'section' | 'pattern' | 'top-level';
  /** Where the section must sit: "仅在 [x] 内", "不在 [y] 内" (target.parent / target.notInside). */
  scope: string[];
  /** Values with a fixed meaning (annotation.sentinels), in source order. */
  sentinels: { value: string; label: string }[];
  facts: LayoutFact[];
  segments: LayoutSegment[];
  notes: string[];
}

/** Runs longer than this are drawn with a gap. */
const MAX_RUN = 6;
/** Records drawn per group, and groups drawn per section, before the gap. */
const RECORDS_SHOWN = 2;
const GROUPS_SHOWN = 2;

/**
 * The drawing for a document. `relation` is the relation its annotation uses (for the context index a
 * contextual relation supplies when the target sets none).
 */
export function layoutOf(doc: Pick<BundleDocument, 'resolved' | 'annotationType'>, relation?: BundleRelation | null): LayoutDrawing {
  const drawing = baseLayout(doc, relation ?? null);
  const { scope, sentinels } = extensionsOf(doc);
  const target = doc.resolved.target;
  const where = target.kind !== 'path' && target.topLevel ? 'top-level' : target.kind !== 'path' && target.sectionPattern !== null ? 'pattern' : 'section';
  return { ...drawing, where, scope, sentinels };
}

/** How the header names what the target addresses: `[name]`, `[pattern]`, or the file start. */
/** One `target.when` condition in words: "[type] 第 0 个为 `[seeking]` 或 `[meet npc]`". */
export function whenText(condition: WhenCondition): string {
  return `[${condition.section}] 第 ${condition.index} 个为 ${condition.values.map((v) => `\`${v}\``).join(' 或 ')}`;
}

function sectionLabel(target: TargetSpec): string {
  if (target.topLevel) return '文件开头';
  return `[${target.sectionPattern ?? target.section ?? ''}]`;
}

function extensionsOf(doc: Pick<BundleDocument, 'resolved' | 'annotationType'>): Pick<LayoutDrawing, 'scope' | 'sentinels'> {
  const { target, annotation } = doc.resolved;
  const scope: string[] = [];
  if (target.kind !== 'path') {
    if (target.topLevel) scope.push('第一个段之前');
    if (target.sectionPattern !== null) scope.push(`段名匹配 ${target.sectionPattern}`);
    if (target.parent !== null) scope.push(`仅在 [${target.parent}] 内`);
    for (const name of target.notInside ?? []) scope.push(`不在 [${name}] 内`);
    if ((target.after ?? []).length > 0) scope.push(`紧跟在 ${(target.after ?? []).map((n) => `[${n}]`).join(' 或 ')} 之后`);
    for (const condition of target.when ?? []) scope.push(`仅当 ${whenText(condition)}`);
  }
  const sentinels = (annotation.sentinels ?? []).map(([value, label]) => ({ value, label }));
  return { scope, sentinels };
}

function baseLayout(doc: Pick<BundleDocument, 'resolved' | 'annotationType'>, relation: BundleRelation | null): Omit<LayoutDrawing, 'where' | 'scope' | 'sentinels'> {
  const target = doc.resolved.target;
  const facts: LayoutFact[] = [];
  const notes: string[] = [];
  if (target.kind === 'path') {
    const { extensions, glob } = doc.resolved.match;
    facts.push({ label: '匹配后缀', value: extensions.length > 0 ? extensions.join(' ') : '任意' });
    facts.push({ label: '路径模式', value: glob.trim() !== '' ? glob : '任意路径' });
    notes.push('路径规则标注文件或目录本身（文件树中的节点），不指向段或标记值。');
    return { mode: 'path', section: null, facts, segments: [], notes };
  }
  const section = target.sectionPattern ?? target.section;
  const label = sectionLabel(target);
  const headerCaption = target.topLevel ? '第一个段之前' : target.kind === 'section' ? '目标：段标签' : '段标签';
  const header: LayoutSegment = {
    caption: target.topLevel ? '文件开头' : '段',
    kind: 'section',
    boxes: [{ role: target.kind === 'section' ? 'target' : 'header', position: label, caption: headerCaption, marks: [] }],
  };
  if (target.topLevel) {
    facts.push({ label: '位置', value: '文件开头、第一个段之前的标记值，下标从 0 数起（topLevel）' });
  } else if (target.sectionPattern !== null) {
    facts.push({ label: '段名模式', value: `${target.sectionPattern}（sectionPattern：Go path.Match 语法，不区分大小写，名称须整体匹配）` });
  } else {
    facts.push({ label: '段', value: label });
  }
  if (target.parent !== null) facts.push({ label: '直接外层段', value: `仅在 [${target.parent}] 内（parent）` });
  if ((target.notInside ?? []).length > 0) {
    facts.push({ label: '排除外层段', value: `不在 ${(target.notInside ?? []).map((n) => `[${n}]`).join('、')} 内（notInside，任意层）` });
  }
  if ((target.after ?? []).length > 0) {
    facts.push({ label: '前一个段', value: `紧跟在 ${(target.after ?? []).map((n) => `[${n}]`).join('、')} 之一之后（after：正文中紧挨着在它之前开始的段，不论层级）` });
  }
  if ((target.when ?? []).length > 0) {
    facts.push({ label: '适用条件', value: `${(target.when ?? []).map(whenText).join('，且 ')}（when：看文件中该段的第一次出现；不满足时本规则不用于该文件）` });
  }
  const sentinelPairs = doc.resolved.annotation.sentinels ?? [];
  if (sentinelPairs.length > 0) {
    facts.push({ label: '固定值', value: `${sentinelPairs.map(([v, l]) => `${v} = ${l}`).join('；')}（sentinels：不查找关联/枚举）` });
  }
  if (target.kind === 'section') {
    notes.push(
      target.sectionPattern !== null
        ? '段规则标注名称匹配模式的每个段的开标签（含方括号），每次出现各一处。'
        : '段规则标注段的开标签 [name]（含方括号），段内每次出现各一处。',
    );
    return { mode: 'section', section, facts, segments: [header, { caption: '段内标记值', kind: 'plain', boxes: [box('token', '#0', ''), box('token', '#1', ''), gap()] }], notes };
  }

  if (target.variableRecords !== null) return variableLayout(target, target.variableRecords, header, facts, notes);
  if (target.countedGroups !== null) return countedLayout(target, target.countedGroups, header, facts, notes);
  const recordTokens = target.recordTokens ?? 0;
  const columns = doc.resolved.annotation.columns;
  if (columns !== null && target.index === null && target.range === null && recordTokens > 0) {
    return recordsLayout(doc, target, relation, header, facts, notes, columns);
  }
  if (target.index !== null && recordTokens > 0) return recordsLayout(doc, target, relation, header, facts, notes);

  const ignored = ignoredParts(target);
  if (ignored.length > 0) notes.push(`未设置 recordTokens，${ignored.join('、')} 不起作用。`);
  if (target.index !== null) {
    const index = target.index;
    facts.push({ label: '目标下标', value: `${index}（段内直接标记值的绝对下标）` });
    const boxes = run(0, index, (i) => box('token', `#${i}`, ''));
    boxes.push(box('target', `#${index}`, '目标'));
    boxes.push(box('token', `#${index + 1}`, ''), gap());
    notes.push(
      target.topLevel
        ? `文件开头（第一个段之前）的第 ${index} 个标记值（从 0 数起）被标注。`
        : `每次出现的 ${label} 段中，第 ${index} 个直接标记值（从 0 数起）被标注。`,
    );
    return { mode: 'index', section, facts, segments: [header, { caption: '段内标记值', kind: 'plain', boxes }], notes };
  }
  if (target.range !== null) {
    const { start, endExclusive } = target.range;
    facts.push({ label: '范围', value: `[${start}, ${endExclusive})` });
    const boxes = run(0, start, (i) => box('token', `#${i}`, ''));
    const inRange = run(start, endExclusive, (i) => box('target', `#${i}`, '范围内'));
    boxes.push(...inRange, box('token', `#${endExclusive}`, ''), gap());
    notes.push(`每次出现的段中，从第 ${start} 个到第 ${endExclusive - 1} 个直接标记值作为一处标注（只取范围内实际存在的首尾）。`);
    return { mode: 'range', section, facts, segments: [header, { caption: '段内标记值', kind: 'plain', boxes }], notes };
  }
  notes.push('目标没有 index 或 range，不标注任何标记值。');
  return { mode: 'none', section, facts, segments: [header], notes };
}

/**
 * `target.countedGroups`: each group drawn as its count box and two records (positions inside the record
 * only: absolute ones depend on the counts), the target group's target box marked.
 */
function countedLayout(target: TargetSpec, groups: CountedGroups, header: LayoutSegment, facts: LayoutFact[], notes: string[]): Omit<LayoutDrawing, 'where' | 'scope' | 'sentinels'> {
  const { widths, group } = groups;
  const offset = Math.max(target.offset ?? 0, 0);
  const index = groups.count ? -1 : (target.index ?? 0);
  const context = groups.count ? null : target.contextIndex;
  facts.push({ label: '计数分组', value: `${widths.map((w, g) => `第 ${g + 1} 组每条 ${w} 个`).join('，')}；每组先写条数 N，再写 N 条（countedGroups）` });
  facts.push({ label: '目标', value: groups.count ? `第 ${group + 1} 组的条数` : `第 ${group + 1} 组每条记录内第 ${index} 个（index）` });
  if (context !== null) facts.push({ label: '上下文下标', value: `记录内第 ${context} 个（contextIndex）` });
  if (offset > 0) facts.push({ label: '偏移', value: `先跳过段首 ${offset} 个标记值（offset，只跳一次）` });
  notes.push('条数不是非负整数、或标记值已用完时，读取在那里停止，之后的组不标注；每组末尾不完整的记录被忽略。标题中的 {record} 是该组内从 1 数起的记录号。');
  const segments: LayoutSegment[] = [header];
  if (offset > 0) segments.push({ caption: `偏移 ${offset}`, kind: 'offset', boxes: run(0, offset, (i) => box('skip', `#${i}`, '跳过')) });
  widths.forEach((width, g) => {
    const mine = g === group;
    const count = box(mine && groups.count ? 'target' : 'sentinel', 'N', mine && groups.count ? '目标：条数' : '条数');
    const children: LayoutSegment[] = [];
    for (let r = 0; r < RECORDS_SHOWN; r++) {
      const boxes: LayoutBox[] = [];
      let previous = -1;
      const keep = new Set([0, width - 1, index, ...(context !== null ? [context] : [])].filter((i) => i >= 0 && i < width));
      for (let i = 0; i < width; i++) {
        if (width > MAX_RUN + 2 && !keep.has(i)) continue;
        if (i > previous + 1) boxes.push(gap());
        previous = i;
        const targetBox = mine && i === index;
        boxes.push({ role: targetBox ? 'target' : 'token', position: `[${i}]`, caption: targetBox ? '目标' : mine && i === context ? '上下文' : '', marks: mine && i === context ? ['context'] : [] });
      }
      children.push({ caption: `记录 ${r + 1}`, kind: 'record', boxes });
    }
    children.push({ caption: '', kind: 'plain', boxes: [gap()] });
    segments.push({ caption: `组 ${g + 1}（每条 ${width} 个）`, kind: 'group', boxes: [count], children });
  });
  segments.push({ caption: '', kind: 'plain', boxes: [target.topLevel ? box('end', '[…]', '第一个段') : box('end', '[/…]', '段结束')] });
  return { mode: 'records', section: target.sectionPattern ?? target.section, facts, segments, notes };
}

/**
 * `target.variableRecords`: one record of each shape (the plain width, then each `widthByFirst` entry),
 * positions inside the record only (absolute ones depend on the records before), the count column and
 * its tail drawn; shapes the rule does not select are captioned so, with no target box.
 */
function variableLayout(target: TargetSpec, records: VariableRecords, header: LayoutSegment, facts: LayoutFact[], notes: string[]): Omit<LayoutDrawing, 'where' | 'scope' | 'sentinels'> {
  const offset = Math.max(target.offset ?? 0, 0);
  const index = records.tail ? -1 : (target.index ?? 0);
  const context = target.contextIndex;
  const countAt = records.countAt;
  // The token that picks the width and the selection: the first, or the keyAt column.
  const keyShort = records.keyAt === 0 ? '首个' : `第 ${records.keyAt} 个`;
  const key = `${keyShort}标记值`;
  const shapes: { first: string | null; width: number }[] = [{ first: null, width: records.width }, ...records.widthByFirst.map(([first, width]) => ({ first, width }))];
  const named = new Set(records.widthByFirst.map(([v]) => v.toLowerCase()));
  const selects = (first: string | null): boolean => {
    if (records.first !== null) return first === null ? records.first.some((v) => !named.has(v.toLowerCase())) : records.first.some((v) => v.toLowerCase() === first.toLowerCase());
    if (records.notFirst !== null) return first === null || !records.notFirst.some((v) => v.toLowerCase() === first.toLowerCase());
    return true;
  };
  facts.push({ label: '变宽记录', value: `${shapes.map((sh) => (sh.first === null ? `每条 ${sh.width} 个` : `${keyShort}为 ${sh.first} 时 ${sh.width} 个`)).join('；')}（variableRecords）` });
  if (records.keyAt !== 0) facts.push({ label: '键所在列', value: `记录内第 ${records.keyAt} 个决定宽度与取舍（keyAt）` });
  if (countAt !== null) facts.push({ label: '条数列', value: `记录内第 ${countAt} 个是条数 N，记录在宽度之后再有 N 个标记值（countAt）` });
  if (records.first !== null) facts.push({ label: '只取', value: `${key}为 ${records.first.join('、')} 的记录（first）` });
  if (records.notFirst !== null) facts.push({ label: '不取', value: `${key}为 ${records.notFirst.join('、')} 的记录（notFirst）` });
  facts.push({ label: '目标', value: records.tail ? '条数之后的每个标记值（tail）' : `记录内第 ${index} 个（index）` });
  if (context !== null) facts.push({ label: '上下文下标', value: `记录内第 ${context} 个（contextIndex）` });
  if (offset > 0) facts.push({ label: '偏移', value: `先跳过段首 ${offset} 个标记值（offset，只跳一次）` });
  notes.push(`${key}不区分大小写地比较。记录被段尾截断、或条数不是非负整数时，读取在那里停止。标题中的 {record} 是段内从 1 数起的记录号（未选中的记录也计数）。`);
  const segments: LayoutSegment[] = [header];
  if (offset > 0) segments.push({ caption: `偏移 ${offset}`, kind: 'offset', boxes: run(0, offset, (i) => box('skip', `#${i}`, '跳过')) });
  const children: LayoutSegment[] = [];
  for (const shape of shapes) {
    const mine = selects(shape.first);
    const boxes: LayoutBox[] = [];
    let previous = -1;
    const keep = new Set([0, records.keyAt, shape.width - 1, index, ...(countAt !== null ? [countAt] : []), ...(context !== null ? [context] : [])].filter((i) => i >= 0 && i < shape.width));
    for (let i = 0; i < shape.width; i++) {
      if (shape.width > MAX_RUN + 2 && !keep.has(i)) continue;
      if (i > previous + 1) boxes.push(gap());
      previous = i;
      const targetBox = mine && i === index;
      const caption = targetBox ? '目标' : i === countAt ? '条数 N' : i === 0 && shape.first !== null ? shape.first : mine && i === context ? '上下文' : '';
      boxes.push({ role: targetBox ? 'target' : i === countAt ? 'sentinel' : 'token', position: `[${i}]`, caption, marks: mine && i === context ? ['context'] : [] });
    }
    if (countAt !== null) boxes.push({ role: mine && records.tail ? 'target' : 'token', position: `[${shape.width}…]`, caption: mine && records.tail ? '目标：N 个' : 'N 个', marks: [] });
    const caption = `${shape.first === null ? '记录' : `${keyShort}为 ${shape.first} 的记录`}（${shape.width} 个${countAt !== null ? ' + N' : ''}）${mine ? '' : '：不标注'}`;
    children.push({ caption, kind: 'record', boxes });
  }
  children.push({ caption: '', kind: 'plain', boxes: [gap()] });
  segments.push({ caption: '记录', kind: 'group', boxes: [], children });
  segments.push({ caption: '', kind: 'plain', boxes: [target.topLevel ? box('end', '[…]', '第一个段') : box('end', '[/…]', '段结束')] });
  return { mode: 'records', section: target.sectionPattern ?? target.section, facts, segments, notes };
}

function recordsLayout(
  doc: Pick<BundleDocument, 'resolved' | 'annotationType'>,
  target: TargetSpec,
  relation: BundleRelation | null,
  header: LayoutSegment,
  facts: LayoutFact[],
  notes: string[],
  columns: string[] | null = null,
): Omit<LayoutDrawing, 'where' | 'scope' | 'sentinels'> {
  const width = target.recordTokens as number;
  // A columns rule targets every token of a record; -1 never equals a column.
  const index = columns !== null ? -1 : (target.index as number);
  const title = doc.resolved.annotation.title;
  const columnTitle = (i: number, record: number) => {
    const own = columns?.[i];
    return (own !== undefined && own !== '' ? own : title)
      .replaceAll('{recordIndex}', String(record - 1))
      .replaceAll('{record}', String(record))
      .replaceAll('{column}', String(i + 1));
  };
  const offset = Math.max(target.offset ?? 0, 0);
  const groupOffset = Math.max(target.groupOffset ?? 0, 0);
  const sentinels = target.standaloneValues ?? [];
  const k = target.tokensPerLineIndex;
  const contextFromRelation = target.contextIndex === null && doc.annotationType === 'reference' && relation?.kind === 'contextual' ? relation.contextToken : null;
  const context = target.contextIndex ?? contextFromRelation;
  const imagePath = doc.annotationType === 'image' ? target.imagePathToken : null;

  facts.push({ label: '记录宽度', value: `${width} 个标记值（recordTokens）` });
  if (k !== null) facts.push({ label: '动态宽度', value: `段内第 ${k} 个标记值为正整数时取它作宽度（tokensPerLineIndex）` });
  if (columns !== null) {
    facts.push({ label: '列标题', value: `${Array.from({ length: Math.max(width, columns.length) }, (_, i) => `[${i}] ${columnTitle(i, 1)}`).join('；')}（columns：记录内每个标记值都被标注）` });
  } else {
    facts.push({ label: '目标下标', value: `记录内第 ${index} 个（index）` });
  }
  if (context !== null) {
    facts.push({ label: '上下文下标', value: `记录内第 ${context} 个${contextFromRelation !== null ? `（来自关联 ${relation?.name ?? ''} 的 contextToken）` : '（contextIndex）'}` });
  }
  if (imagePath !== null) facts.push({ label: '图片路径下标', value: `记录内第 ${imagePath} 个（imagePathToken）` });
  if (offset > 0) facts.push({ label: '偏移', value: `先跳过段首 ${offset} 个标记值（offset，只跳一次）` });
  if (sentinels.length > 0) facts.push({ label: '分隔值', value: `${sentinels.join('、')}（整数标记值等于它时分组，分隔值本身不属于任何组）` });
  if (groupOffset > 0) facts.push({ label: '组内偏移', value: `每组开头跳过 ${groupOffset} 个（groupOffset）` });
  if (columns !== null && columns.length > width) notes.push(`列标题多于记录宽度 ${width}：多出的列标题只在动态宽度更大时用到。`);
  if (columns !== null) notes.push('标题中的 {record} 和 {column} 换成从 1 数起的记录号和列号，{recordIndex} 换成从 0 数起的记录号。');
  if (index >= width) notes.push(`目标下标 ${index} 不小于记录宽度 ${width}：按固定宽度时没有记录被标注。`);
  if (context !== null && (context < 0 || context >= width)) notes.push(`上下文下标 ${context} 超出记录宽度 ${width}：这些记录会被跳过。`);
  if (imagePath !== null && (imagePath < 0 || imagePath >= width)) notes.push(`图片路径下标 ${imagePath} 超出记录宽度 ${width}：这些记录会被跳过。`);
  notes.push(sentinels.length > 0 ? '每组末尾不完整的记录被忽略；只有类型为整数的标记值才算分隔值（`-1` 这样的反引号字符串不算）。' : '末尾不完整的记录被忽略。');

  const segments: LayoutSegment[] = [header];
  const widthMark = (absolute: number): BoxMark[] => (k === absolute ? ['width'] : []);
  if (offset > 0) {
    const boxes = run(0, offset, (i) => ({ ...box('skip', `#${i}`, '跳过'), marks: widthMark(i) }), k);
    segments.push({ caption: `偏移 ${offset}`, kind: 'offset', boxes });
  }
  const groups = sentinels.length > 0 ? GROUPS_SHOWN : 1;
  for (let g = 0; g < groups; g++) {
    // Absolute positions are known only in the first group; later ones depend on where sentinels fall.
    const base = g === 0 ? offset : null;
    const children: LayoutSegment[] = [];
    const boxes: LayoutBox[] = [];
    if (groupOffset > 0) {
      boxes.push(...run(0, groupOffset, (i) => box('group-skip', base === null ? '' : `#${base + i}`, '组首跳过')));
    }
    for (let r = 0; r < RECORDS_SHOWN; r++) {
      const start = base === null ? null : base + groupOffset + r * width;
      const keep = new Set([0, width - 1, index, ...(context !== null ? [context] : []), ...(imagePath !== null ? [imagePath] : [])].filter((i) => i >= 0 && i < width));
      const recordBoxes: LayoutBox[] = [];
      let previous = -1;
      for (let i = 0; i < width; i++) {
        if (width > MAX_RUN + 2 && !keep.has(i)) continue;
        if (i > previous + 1) recordBoxes.push(gap());
        previous = i;
        const marks: BoxMark[] = [];
        if (i === context) marks.push('context');
        if (i === imagePath) marks.push('image-path');
        if (start !== null && k === start + i) marks.push('width');
        const role: BoxRole = i === index || columns !== null ? 'target' : 'token';
        const caption =
          columns !== null ? columnTitle(i, r + 1) : i === index ? '目标' : i === context ? '上下文' : i === imagePath ? '图片路径' : '';
        recordBoxes.push({ role, position: `${start === null ? '' : `#${start + i} `}[${i}]`, caption, marks });
      }
      children.push({ caption: `记录 ${r + 1}`, kind: 'record', boxes: recordBoxes });
    }
    children.push({ caption: '', kind: 'plain', boxes: [gap()] });
    segments.push({ caption: sentinels.length > 0 ? `组 ${g + 1}` : '记录', kind: 'group', boxes, children });
    if (sentinels.length > 0) segments.push({ caption: '分隔', kind: 'sentinel', boxes: [box('sentinel', sentinels.join(' | '), '分隔值')] });
  }
  if (sentinels.length > 0) segments.push({ caption: '', kind: 'plain', boxes: [gap()] });
  segments.push({ caption: '', kind: 'plain', boxes: [target.topLevel ? box('end', '[…]', '第一个段') : box('end', '[/…]', '段结束')] });
  return { mode: columns !== null ? 'columns' : 'records', section: target.sectionPattern ?? target.section, facts, segments, notes };
}

function ignoredParts(target: TargetSpec): string[] {
  const parts: string[] = [];
  if (target.offset !== null) parts.push('offset');
  if (target.groupOffset !== null) parts.push('groupOffset');
  if (target.standaloneValues !== null) parts.push('standaloneValues');
  if (target.tokensPerLineIndex !== null) parts.push('tokensPerLineIndex');
  return parts;
}

function box(role: BoxRole, position: string, caption: string): LayoutBox {
  return { role, position, caption, marks: [] };
}

function gap(): LayoutBox {
  return { role: 'gap', position: '…', caption: '', marks: [] };
}

/** Boxes for positions [from, to), with a gap in the middle when the run is long (keeping `keep` visible). */
function run(from: number, to: number, make: (i: number) => LayoutBox, keep?: number | null): LayoutBox[] {
  const boxes: LayoutBox[] = [];
  if (to - from <= MAX_RUN) {
    for (let i = from; i < to; i++) boxes.push(make(i));
    return boxes;
  }
  const shown = new Set([from, from + 1, to - 2, to - 1]);
  if (keep !== null && keep !== undefined && keep >= from && keep < to) shown.add(keep);
  let previous = from - 1;
  for (const i of [...shown].sort((a, b) => a - b)) {
    if (i > previous + 1) boxes.push(gap());
    boxes.push(make(i));
    previous = i;
  }
  return boxes;
}
