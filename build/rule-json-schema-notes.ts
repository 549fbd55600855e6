/**
 * What the editor JSON Schemas add to the zod shapes of build/input-schema.ts: a title and a
 * Chinese-then-English description on every key, the closed value sets (rule-json-schema-enums.ts),
 * and the checks of build/validate-layers.ts that one file can show, written as JSON Schema.
 *
 * The notes live in a registry made per call (zod's global registry would be module state), keyed by
 * the zod schemas themselves, so a renamed key fails the type check here. `errorMessage` and
 * `patternErrorMessage` are VS Code's own keywords: it shows them instead of "Value must be …".
 *
 * A check goes here only when pvfdoc reports the same input (the test tries random definitions on
 * both): the editor may say less than pvfdoc, never more. Anything that needs another file, another
 * definition or a comparison of two values stays with `pvfdoc validate` (docs/editor-schemas.md lists
 * them). A rule that uses a shared field may take its target or annotation from it, so the checks
 * across the two blocks apply only when the rule's own `target.kind` and `annotation.type` are set:
 * then both blocks are its own.
 */
import { z } from 'zod';
import { DEFAULT_PVF_VERSIONS } from '../runtime/bundle/constants.js';
import {
  AnnotationInputSchema,
  AnnotationsFileInputSchema,
  FieldInputSchema,
  LayerManifestInputSchema,
  ListsFileInputSchema,
  MatchInputSchema,
  PreviewInputSchema,
  RelationInputSchema,
  RenderingFileInputSchema,
  RenderingRuleInputSchema,
  RuleInputSchema,
  TargetInputSchema,
  TrustInputSchema,
  WhenConditionInputSchema,
  CountedGroupsInputSchema,
  VariableRecordsInputSchema,
} from './input-schema.js';
import {
  ANNOTATION_TYPES,
  FROM_FIELD,
  LAYER_KINDS,
  RELATION_KIND_EMPTY,
  RELATION_KINDS,
  RENDERING_TARGET_KINDS,
  TARGET_KINDS,
  TRUST_LEVELS,
  type EnumChoice,
  type EnumMeaning,
} from './rule-json-schema-enums.js';

type Json = Record<string, unknown>;

export interface RuleSchemaNotes {
  /** Notes keyed by the zod schemas of build/input-schema.ts. */
  registry: z.core.$ZodRegistry<Json>;
  /** Definitions the notes refer to by `$ref` that have no zod schema of their own. */
  definitions: Record<string, Json>;
}

/** The schema files; each gets its own notes (the extension check of rendering rules differs). */
export type RuleSchemaFile = 'annotations' | 'lists' | 'rendering' | 'layer';

// ---------------------------------------------------------------------------------------------------
// Fragments

function doc(title: string, zh: string, en: string, extra: Json = {}): Json {
  return { title, description: `${zh}\n${en}`, ...extra };
}

function bilingual(zh: string, en: string): string {
  return `${zh} / ${en}`;
}

/** VS Code lists the valid values itself when none matches ("Value is not accepted. Valid values: …"). */
function oneOfChoices(choices: readonly EnumChoice[], extra: readonly EnumChoice[] = []): Json {
  return { oneOf: [...choices, ...extra].map((c) => ({ const: c.value, description: `${c.zh}\n${c.en}` })) };
}

function empty(meaning: EnumMeaning): EnumChoice {
  return { value: '', ...meaning };
}

/** `zh` names the value in the Chinese message, `en` in the English one. */
function nonBlank(zh: string, en = zh): Json {
  return { pattern: '\\S', patternErrorMessage: bilingual(`${zh} 不能为空`, `${en} must not be blank`) };
}

function notEmptyString(message: string): Json {
  return { not: { const: '' }, errorMessage: message };
}

function forbidden(message: string): Json {
  return { not: {}, errorMessage: message };
}

const NON_NEGATIVE: Json = { minimum: 0 };

/** `key` is present with one of `values`. */
function keyIs(key: string, values: readonly unknown[]): Json {
  return { required: [key], properties: { [key]: values.length === 1 ? { const: values[0] } : { enum: values } } };
}

/** The object's `block` is present and its `key` is one of `values`. */
function blockKeyIs(block: string, key: string, values: readonly unknown[]): Json {
  return { required: [block], properties: { [block]: keyIs(key, values) } };
}

/** Go zero values count as unset (validate-layers.ts repeatedKey): offset 0, standaloneValues []. */
const REPEATED_RECORD_SET: Json = {
  anyOf: [
    { required: ['offset'], properties: { offset: { not: { const: 0 } } } },
    { required: ['groupOffset'], properties: { groupOffset: { not: { const: 0 } } } },
    { required: ['standaloneValues'], properties: { standaloneValues: { minItems: 1 } } },
    { required: ['tokensPerLineIndex'] },
  ],
};

const POSITIVE_RECORD_TOKENS: Json = { required: ['recordTokens'], properties: { recordTokens: { minimum: 1 } } };

const KIND_MESSAGE = bilingual('target.kind 必须是 path、section 或 token', 'target.kind must be "path", "section" or "token"');
const TYPE_MESSAGE = bilingual('annotation.type 必须是 text、image、enum、reference 或 path', 'annotation.type must be "text", "image", "enum", "reference" or "path"');
const ANNOTATION_TYPE_VALUES = ANNOTATION_TYPES.map((c) => c.value);

// ---------------------------------------------------------------------------------------------------
// Checks inside one block

/** Section and token targets: one of section / sectionPattern, scope names non-blank. */
const SECTION_CHOICE: Json[] = [
  {
    if: { required: ['sectionPattern'] },
    then: {
      properties: { sectionPattern: nonBlank('target.sectionPattern') },
      not: { required: ['section'] },
      errorMessage: bilingual('target.section 与 target.sectionPattern 只能配置一个', 'set target.section or target.sectionPattern, not both'),
    },
    else: { required: ['section'], properties: { section: nonBlank('target.section') } },
  },
  {
    properties: {
      parent: nonBlank('target.parent'),
      notInside: { items: nonBlank('target.notInside 的名称', 'a target.notInside name') },
      after: { minItems: 1, items: nonBlank('target.after 的名称', 'a target.after name') },
    },
  },
];

/** Section and token targets: 1–4 `when` conditions, each with a non-blank section, index ≥ 0 and a value. */
const WHEN_CHECK: Json = {
  properties: {
    when: {
      minItems: 1,
      maxItems: 4,
      errorMessage: bilingual('target.when 需要 1 到 4 个条件', 'target.when lists 1 to 4 conditions (all must hold)'),
      items: {
        properties: {
          section: nonBlank('target.when 的 section', 'a target.when section'),
          index: NON_NEGATIVE,
          values: { minItems: 1, errorMessage: bilingual('target.when 的 values 至少需要一个值', 'a target.when condition lists at least one value') },
        },
      },
    },
  },
};

/** Token targets: 1–8 record widths ≥ 1 and a group ≥ 0 (that it names one of them is checked at build). */
const COUNTED_GROUPS_CHECK: Json = {
  properties: {
    countedGroups: {
      properties: {
        widths: { minItems: 1, maxItems: 8, items: { minimum: 1 }, errorMessage: bilingual('target.countedGroups.widths 需要 1 到 8 个大于 0 的记录宽度', 'list 1 to 8 record widths ≥ 1') },
        group: NON_NEGATIVE,
      },
    },
  },
};

/** Token targets: widths ≥ 1, a count column ≥ 0 (that it fits every record is checked at build). */
const VARIABLE_RECORDS_CHECK: Json = {
  properties: {
    variableRecords: {
      properties: {
        width: { minimum: 1, errorMessage: bilingual('target.variableRecords.width 必须大于 0', 'a record has at least one token: use a width ≥ 1') },
        widthByFirst: { minProperties: 1, maxProperties: 16, additionalProperties: { minimum: 1 } },
        countAt: NON_NEGATIVE,
        keyAt: NON_NEGATIVE,
        first: { minItems: 1 },
        notFirst: { minItems: 1 },
      },
    },
  },
};

function notForKind(kind: string): Json {
  const message = bilingual(`${kind} 目标不能使用 offset/groupOffset/standaloneValues/tokensPerLineIndex`, 'offset, groupOffset, standaloneValues and tokensPerLineIndex only apply to token targets');
  return {
    properties: {
      offset: { const: 0, errorMessage: message },
      groupOffset: { const: 0, errorMessage: message },
      standaloneValues: { maxItems: 0 },
      tokensPerLineIndex: forbidden(message),
      topLevel: forbidden(bilingual('target.topLevel 只允许用于 token 标注', 'target.topLevel only applies to token targets')),
    },
  };
}

const TARGET_CHECKS: Json[] = [
  {
    if: keyIs('kind', ['path']),
    then: {
      allOf: [
        notForKind('path'),
        {
          properties: Object.fromEntries(
            ['parent', 'notInside', 'after', 'sectionPattern', 'when', 'countedGroups', 'variableRecords'].map((key) => [
              key,
              forbidden(bilingual(`target.${key} 只允许用于 section 或 token 标注`, `a path target has no section: remove target.${key}`)),
            ]),
          ),
        },
      ],
    },
  },
  {
    if: keyIs('kind', ['section']),
    then: {
      allOf: [
        notForKind('section'),
        WHEN_CHECK,
        { properties: { countedGroups: forbidden(bilingual('target.countedGroups 只允许用于 token 标注', 'countedGroups only applies to token targets')) } },
        { properties: { variableRecords: forbidden(bilingual('target.variableRecords 只允许用于 token 标注', 'variableRecords only applies to token targets')) } },
        ...SECTION_CHOICE,
      ],
    },
  },
  {
    if: keyIs('kind', ['token']),
    then: {
      allOf: [
        {
          properties: {
            index: NON_NEGATIVE,
            offset: NON_NEGATIVE,
            groupOffset: NON_NEGATIVE,
            tokensPerLineIndex: NON_NEGATIVE,
            recordTokens: NON_NEGATIVE,
            range: { required: ['endExclusive'], properties: { start: NON_NEGATIVE, endExclusive: { minimum: 1 } } },
          },
        },
        { if: { allOf: [REPEATED_RECORD_SET, { not: { required: ['countedGroups'] } }, { not: { required: ['variableRecords'] } }] }, then: POSITIVE_RECORD_TOKENS },
        WHEN_CHECK,
        COUNTED_GROUPS_CHECK,
        VARIABLE_RECORDS_CHECK,
        {
          if: keyIs('topLevel', [true]),
          then: {
            properties: Object.fromEntries(
              ['section', 'sectionPattern', 'parent', 'notInside', 'after'].map((key) => [
                key,
                forbidden(bilingual(`target.topLevel 不能与 target.${key} 同时使用`, `target.topLevel addresses the tokens before the first section: remove target.${key}`)),
              ]),
            ),
          },
          else: { allOf: SECTION_CHOICE },
        },
      ],
    },
  },
];

/** A relative folder inside the archive: no leading "/", no "..", "\" read as "/" (checkAnnotation). */
const PATH_ROOT_OUTSIDE = '^\\s*([/\\\\]|\\.\\.\\s*$|\\.\\.[/\\\\])|[/\\\\]\\.\\.[/\\\\]';

const ANNOTATION_CHECKS: Json[] = [
  {
    if: keyIs('type', ['enum']),
    then: { required: ['values'], properties: { values: { minProperties: 1 } } },
  },
  {
    if: keyIs('type', ['reference']),
    then: { required: ['relation'], properties: { relation: nonBlank('annotation.relation') } },
  },
  {
    if: keyIs('type', ['path']),
    then: {
      properties: {
        pathRoot: {
          not: { pattern: PATH_ROOT_OUTSIDE },
          errorMessage: bilingual('annotation.pathRoot 必须是归档内的相对目录', 'use a folder relative to the archive root without "..", e.g. "equipment/"'),
        },
      },
    },
    else: { properties: { pathRoot: { const: '', errorMessage: bilingual('annotation.pathRoot 只允许用于 path 标注', 'annotation.pathRoot only applies to type "path"') } } },
  },
  {
    if: { not: keyIs('type', ['image']) },
    then: { properties: { inlineImage: { const: false, errorMessage: bilingual('annotation.inlineImage 只允许用于 image 标注', 'annotation.inlineImage only applies to type "image"') } } },
  },
  {
    if: { required: ['sentinels'] },
    then: {
      required: ['type'],
      properties: {
        type: { enum: ['enum', 'reference'], errorMessage: bilingual('annotation.sentinels 只允许用于 enum 或 reference 标注', 'annotation.sentinels only applies to types "enum" and "reference"') },
      },
    },
  },
  {
    if: { required: ['columns'] },
    then: { required: ['type'], properties: { type: { const: 'text', errorMessage: bilingual('annotation.columns 只支持 text 类型', 'records with column titles take annotation.type "text"') } } },
  },
];

// ---------------------------------------------------------------------------------------------------
// Checks across target and annotation (fields, and rules whose own kind and type are set)

const OWN_TYPE = blockKeyIs('annotation', 'type', ANNOTATION_TYPE_VALUES);
const TOKEN_TARGET = blockKeyIs('target', 'kind', ['token']);
const WITH_COLUMNS: Json = { required: ['annotation'], properties: { annotation: { required: ['columns'] } } };

function onTarget(schema: Json): Json {
  return { properties: { target: schema } };
}

function typeMustBe(types: readonly string[], message: string): Json {
  return { properties: { annotation: { properties: { type: { enum: types, errorMessage: message } } } } };
}

const NOT_IMAGE_PATH_TOKEN = forbidden(bilingual('target.imagePathToken 只允许用于 image 标注', 'remove target.imagePathToken, or set annotation.type to "image"'));

/** Shared by fields and rules, so written once, under this name in `definitions`. */
const CROSS_BLOCK_DEFINITION = 'TargetWithAnnotation';
const CROSS_BLOCK_REF: Json = { $ref: `#/definitions/${CROSS_BLOCK_DEFINITION}` };

const CROSS_BLOCK_CHECKS: Json[] = [
  {
    if: { allOf: [blockKeyIs('target', 'kind', ['path', 'section']), OWN_TYPE] },
    then: typeMustBe(['text'], bilingual('path 与 section 标注只支持 text 类型', 'path and section targets take annotation.type "text"')),
  },
  {
    if: { allOf: [blockKeyIs('target', 'kind', ['path', 'section']), WITH_COLUMNS] },
    then: {
      properties: { annotation: { properties: { columns: forbidden(bilingual('annotation.columns 只允许用于 token 标注', 'annotation.columns needs a token target with repeated records')) } } },
    },
  },
  {
    // A token target without columns, counted groups or variable records: one index or one range, and the repeated-record rules.
    if: {
      allOf: [
        TOKEN_TARGET,
        OWN_TYPE,
        { properties: { annotation: { not: { required: ['columns'] } } } },
        { properties: { target: { not: { required: ['countedGroups'] } } } },
        { properties: { target: { not: { required: ['variableRecords'] } } } },
      ],
    },
    then: {
      allOf: [
        onTarget({
          allOf: [
            { anyOf: [{ required: ['index'] }, { required: ['range'] }] },
            { not: { required: ['index', 'range'] }, errorMessage: bilingual('token 目标必须且只能配置 index 或 range', 'set exactly one of target.index or target.range (remove one)') },
            { if: { required: ['contextIndex'] }, then: { allOf: [POSITIVE_RECORD_TOKENS, { properties: { contextIndex: NON_NEGATIVE } }] } },
            { if: POSITIVE_RECORD_TOKENS, then: { required: ['index'] } },
            { if: REPEATED_RECORD_SET, then: { required: ['index'] } },
          ],
        }),
        {
          if: { properties: { target: { required: ['range'] } } },
          then: typeMustBe(['text'], bilingual('token 范围只支持 text 类型', 'a token range takes annotation.type "text"; use target.index for other types')),
        },
        {
          if: blockKeyIs('annotation', 'type', ['image']),
          then: onTarget({
            allOf: [
              POSITIVE_RECORD_TOKENS,
              // pvfine's legacy form (imageIndexToken, no imagePathToken) is migrated on load: index
              // becomes the path token (load-layers.ts migrateLegacyImage).
              { required: ['index'], anyOf: [{ required: ['imagePathToken'] }, { required: ['imageIndexToken'] }], properties: { imagePathToken: NON_NEGATIVE } },
              { properties: { range: forbidden(bilingual('image 标注必须使用单个路径 token', 'set target.index and no target.range')) } },
              { properties: { contextIndex: forbidden(bilingual('image 标注不支持 contextIndex', 'remove target.contextIndex')) } },
            ],
          }),
          else: onTarget({ properties: { imagePathToken: NOT_IMAGE_PATH_TOKEN } }),
        },
      ],
    },
  },
  {
    // A token target with columns annotates every token of every record.
    if: { allOf: [TOKEN_TARGET, WITH_COLUMNS] },
    then: onTarget({
      allOf: [
        {
          properties: Object.fromEntries(
            ['index', 'range'].map((key) => [
              key,
              forbidden(bilingual(`annotation.columns 不能与 target.${key} 同时使用`, `annotation.columns annotates every token of each record: remove target.${key}`)),
            ]),
          ),
        },
        { properties: { imagePathToken: NOT_IMAGE_PATH_TOKEN } },
        { anyOf: [POSITIVE_RECORD_TOKENS, { required: ['tokensPerLineIndex'] }] },
        { if: POSITIVE_RECORD_TOKENS, then: { properties: { contextIndex: NON_NEGATIVE } } },
      ],
    }),
  },
];

// ---------------------------------------------------------------------------------------------------
// The notes

const EXTENSION_PATTERN = {
  /** validate-layers.ts checkMatch: as written. */
  annotations: '^\\.[^/\\\\]*$',
  /** validate-layers.ts checkRendering: trimmed first. */
  rendering: '^\\s*\\.[^/\\\\]*$',
};

/** The notes for one schema file, in a registry of its own. */
export function ruleSchemaNotes(file: RuleSchemaFile): RuleSchemaNotes {
  const notes = z.registry<Json>();
  const definitions: Record<string, Json> =
    file === 'annotations'
      ? {
          [CROSS_BLOCK_DEFINITION]: {
            $comment: 'The checks across target and annotation of a field, or of a rule whose own target.kind and annotation.type are set.',
            allOf: CROSS_BLOCK_CHECKS,
          },
        }
      : {};
  const add = (schema: z.ZodType, note: Json): void => {
    notes.add(schema, note);
  };
  const versionsExample = { examples: [[...DEFAULT_PVF_VERSIONS]] };
  const version = doc('version 格式版本', '格式版本，必须为 1。', 'Format version; must be 1.', {
    const: 1,
    errorMessage: bilingual('version 必须为 1', 'set "version": 1'),
  });
  const relations = doc(
    'relations 关联',
    '关联定义：名称 → 定义。名称不能为空；规则通过 annotation.relation 引用它。',
    'Relations by name (non-blank); rules refer to them through annotation.relation.',
    { propertyNames: nonBlank('relation 名称', 'a relation name') },
  );

  // Match
  const match = MatchInputSchema.shape;
  add(MatchInputSchema, {
    id: 'Match',
    ...doc('match 文件匹配', '适用于哪些文件；{} 或省略 = 所有文件。extensions 与 glob 都写时两者都要满足。', 'Which files the definition applies to; {} or absent = every file. With both keys, both must match.'),
  });
  add(match.extensions, doc('extensions 文件后缀', '带点的文件后缀，如 ".equ"，不区分大小写，不能含 / 或 \\。写了后缀的定义不作用于目录。', 'File extensions with the dot, e.g. ".equ", case-insensitive, no / or \\. Folders never match a definition with extensions.', { examples: [['.equ']] }));
  add(match.extensions.unwrap().element, {
    pattern: EXTENSION_PATTERN[file === 'rendering' ? 'rendering' : 'annotations'],
    patternErrorMessage: bilingual('match.extensions 必须是以点开头的文件后缀', 'write each extension with its leading dot and no "/" or "\\", e.g. ".equ"'),
  });
  add(match.glob, doc('glob 路径模式', '归档内路径模式：每段按 Go path.Match（* ? [a-z] [^...]），** 跨任意层目录；不区分大小写，\\ 视为 /。空 = 不限路径。', 'Archive path pattern: Go path.Match per segment, ** spans any number of folders; case-insensitive, \\ reads as /. Empty = any path.', { examples: ['equipment/**'] }));

  // Target
  const target = TargetInputSchema.shape;
  add(TargetInputSchema, {
    id: 'Target',
    ...doc('target 标注目标', '标注落在哪里：路径、段标签，或段内的 token。', 'Where the annotation lands: an archive path, a section tag, or tokens of a section.'),
    allOf: TARGET_CHECKS,
  });
  add(target.kind, { ...doc('kind 目标类型', '目标类型。', 'Target kind.'), ...oneOfChoices(TARGET_KINDS, [empty(FROM_FIELD)]) });
  add(target.section, doc('section 段名', '段名，不带方括号，如 "name" 对应 [name]，不区分大小写。section 与 token 目标需要它（或 sectionPattern、topLevel）。', 'Section name without brackets ("name" for [name]), case-insensitive. Section and token targets need it (or sectionPattern / topLevel).'));
  add(target.index, doc('index token 下标', 'token 下标（从 0 起）：没有 recordTokens 时是段内直接 token 的下标，有 recordTokens 时是每条记录内的下标；image 标注时是图片索引 token。', '0-based token index: among the section\'s direct tokens, or inside each record when recordTokens is set; for image annotations the image-index token.'));
  const range = target.range.unwrap().shape;
  add(target.range, doc('range token 范围', '连续的 token 范围 [start, endExclusive)，与 index 二选一，只用于 text 标注。', 'A token range [start, endExclusive), instead of index; text annotations only.'));
  add(range.start, doc('start 起点', '范围起点（含），≥ 0，省略为 0。', 'First index (inclusive), ≥ 0; absent = 0.'));
  add(range.endExclusive, doc('endExclusive 终点', '范围终点（不含），必须大于 start。', 'Index after the last one; must be greater than start.'));
  add(target.offset, doc('offset 起始跳过', '分组之前先跳过的直接 token 数（只跳一次）；需要 recordTokens。', 'Direct tokens to skip once before grouping; needs recordTokens.'));
  add(target.groupOffset, doc('groupOffset 组内跳过', '每个分组开头跳过的 token 数（分组由 standaloneValues 切分）；需要 recordTokens。', 'Tokens to skip at the start of every group (groups are split by standaloneValues); needs recordTokens.'));
  add(target.standaloneValues, doc('standaloneValues 分组哨兵', '切分分组的整数哨兵值（32 位整数）；哨兵 token 本身不属于任何分组。需要 recordTokens。', 'Integer sentinel values (32-bit) that split the section into groups; the sentinel tokens belong to no group. Needs recordTokens.', { examples: [[-1]] }));
  add(target.recordTokens, doc('recordTokens 记录宽度', '每条记录的 token 数；> 0 时开启重复记录模式，index 即记录内下标。', 'Record width in tokens; > 0 turns on repeated records, and index is then the index inside each record.'));
  add(target.tokensPerLineIndex, doc('tokensPerLineIndex 宽度 token', '某个直接 token 的下标，它的正整数值决定该段的记录宽度；recordTokens 仍是回退值。', 'Index of a direct token whose positive integer value sets the record width of that occurrence; recordTokens stays the fallback.'));
  add(target.contextIndex, doc('contextIndex 上下文 token', '记录内上下文 token（如职业标签）的下标，传给 contextual 关联，优先于关联的 contextToken；需要 recordTokens。', 'In-record index of the context token (e.g. a job tag) passed to a contextual relation, instead of the relation\'s contextToken; needs recordTokens.'));
  add(target.imagePathToken, doc('imagePathToken 图片路径 token', 'image 标注：记录内 IMG 路径 token 的下标（index 是图片索引 token），两者不能相同。', 'Image annotations: in-record index of the IMG path token (index is the image-index token); the two must differ.'));
  add(target.imageIndexToken, doc('imageIndexToken 旧版图片写法', '旧版 image 写法，读取时迁移为 index + imagePathToken；新文件请直接写 index 与 imagePathToken。', 'Legacy image form, migrated on load to index + imagePathToken; write those instead.'));
  add(target.parent, doc('parent 直接上级段', '（pvfdoc 扩展）该段的直接上级段必须是这个名字（不带方括号）。只用于 section 与 token 目标。', '(pvfdoc extension) The direct enclosing section must have this name. Section and token targets only.'));
  add(target.notInside, doc('notInside 不在这些段内', '（pvfdoc 扩展）任何一层上级段都不能是这些名字之一。只用于 section 与 token 目标。', '(pvfdoc extension) No enclosing section, at any depth, may have one of these names. Section and token targets only.'));
  add(target.after, doc('after 紧跟在这些段之后', '（pvfdoc 扩展）正文里紧挨在本段之前开始的那个段（按出现顺序，不论层级）必须是这些名字之一，不区分大小写。用于一行里连写的命令：[SET ACTION] [DAMAGE] 里的 [DAMAGE] 与 [TRIGGER CHECK] [DAMAGE] 1 3 里的 [DAMAGE] 读法不同。只用于 section 与 token 目标。', '(pvfdoc extension) The section opened right before this one in the text (any depth) must have one of these names, case-insensitive. For commands written on one line: [DAMAGE] after [SET ACTION] reads differently from [DAMAGE] after [TRIGGER CHECK]. Section and token targets only.', { examples: [['set action']] }));
  add(target.topLevel, doc('topLevel 首段之前', '（pvfdoc 扩展）true：第一个段之前的 token（如 .lst 的每一行），当作一个段的直接 token 编号。只用于 token 目标，不能同时写 section、sectionPattern、parent、notInside。', '(pvfdoc extension) true: the tokens before the first section, indexed as one section\'s direct tokens. Token targets only, without section, sectionPattern, parent or notInside.'));
  add(target.when, doc('when 适用条件', '（pvfdoc 扩展）只在满足全部条件的文件中使用本规则：每个条件看文件中该段（section）的第一次出现，其第 index 个 token（默认 0）的值须是 values 之一（不区分大小写）。1 到 4 个条件；只用于 section 与 token 目标。', '(pvfdoc extension) The rule applies only in files where every condition holds: token `index` (default 0) of the first occurrence of `section` in the file has one of `values` (case-insensitive). 1 to 4 conditions; section and token targets only.', { examples: [[{ section: 'type', values: ['[seeking]'] }]] }));
  add(target.countedGroups, doc('countedGroups 计数分组', '（pvfdoc 扩展）段内标记值是依次排列的若干组：每组先写条数 N，再写 N 条记录（每条 widths[g] 个）。group 选组（默认 0），index 是该组每条记录内的下标；count: true 时标注该组的条数本身。offset 先跳过段首；不能与 recordTokens、range、groupOffset、standaloneValues、tokensPerLineIndex、imagePathToken、annotation.columns 同用。只用于 token 目标。', '(pvfdoc extension) The section\'s tokens are consecutive groups, each a count N and N records of widths[g] tokens. `group` picks one (default 0), `index` is the token inside each of its records; `count: true` targets the group\'s count. `offset` skips once first; not with recordTokens, range, groupOffset, standaloneValues, tokensPerLineIndex, imagePathToken or annotation.columns. Token targets only.', { examples: [{ widths: [2, 2, 2], group: 1 }] }));
  const counted = CountedGroupsInputSchema.shape;
  add(CountedGroupsInputSchema, doc('计数分组', '计数分组的读法。', 'How the groups are read.'));
  add(counted.widths, doc('widths 各组记录宽度', '各组每条记录的标记值个数，按顺序，1 到 8 组。', 'Record width of each group, in order; 1 to 8 groups.'));
  add(counted.group, doc('group 目标组', '目标所在的组（从 0 起），省略为 0。', '0-based group of the target; absent = 0.'));
  add(counted.count, doc('count 标注条数', 'true：标注该组的条数标记值（此时不写 index）。', 'true: annotate the group\'s count token (then no index).'));
  add(target.variableRecords, doc('variableRecords 变宽记录', '（pvfdoc 扩展）段内标记值是依次排列的记录，每条的宽度由它自己决定：默认 width 个；首个标记值是 widthByFirst 的键时取对应宽度；有 countAt 时该列是条数 N，记录在宽度之后再有 N 个（尾部）。first / notFirst 按首个标记值选记录（不区分大小写），index 是记录内下标；tail: true 时标注尾部的每个标记值。offset 先跳过段首；不能与 recordTokens、range、groupOffset、standaloneValues、tokensPerLineIndex、imagePathToken、countedGroups、annotation.columns 同用。只用于 token 目标。', '(pvfdoc extension) The section\'s tokens are consecutive records, each deciding its own width: `width` tokens, or the width `widthByFirst` gives its first token; with `countAt`, that column holds a count N and N more tokens (the tail) follow the width. `first` / `notFirst` select records by their first token (case-insensitive); `index` is the column inside each record, `tail: true` targets every tail token. `offset` skips once first; not with recordTokens, range, groupOffset, standaloneValues, tokensPerLineIndex, imagePathToken, countedGroups or annotation.columns. Token targets only.', { examples: [{ width: 3, widthByFirst: { '[SKILL_LEVEL]': 4 }, notFirst: ['[SKILL_LEVEL]'] }, { width: 5, countAt: 4, tail: true }] }));
  const variable = VariableRecordsInputSchema.shape;
  add(VariableRecordsInputSchema, doc('变宽记录', '变宽记录的读法。', 'How the records are read.'));
  add(variable.width, doc('width 记录宽度', '一条记录的标记值个数（首个标记值不在 widthByFirst 中时）。', 'Tokens of a record (when widthByFirst does not have its first token).'));
  add(variable.keyAt, doc('keyAt 键所在列', '决定宽度的标记值在记录内的列，默认 0（首个）；widthByFirst、first、notFirst 都比较这一列（须小于每种宽度）。例：任务奖励 `物品 [job] 职业 成长型 数量` 由第 1 列的 `[job]` 决定宽度。', 'Column of the key token inside the record, 0 (the first) by default; widthByFirst, first and notFirst compare it (below every width). E.g. a quest reward `item [job] job growtype count` takes its width from the `[job]` in column 1.'));
  add(variable.widthByFirst, doc('widthByFirst 按首个值的宽度', '首个标记值（规范化后的值，字符串不带反引号，如 "[SKILL_LEVEL]"）→ 该记录的宽度，1 到 16 项，不区分大小写。', 'First token value (canonical: strings without backticks, e.g. "[SKILL_LEVEL]") → that record\'s width; 1 to 16 entries, case-insensitive.'));
  add(variable.countAt, doc('countAt 条数列', '记录内条数 N 所在的列（须小于每种宽度）；记录在宽度之后再有 N 个标记值。', 'Column of a count N inside the record (below every width); N more tokens follow the width.'));
  add(variable.first, doc('first 只取这些记录', '只标注首个标记值是其中之一的记录。', 'Only records whose first token is one of these.'));
  add(variable.notFirst, doc('notFirst 不取这些记录', '只标注首个标记值不是其中任何一个的记录；不能与 first 同用。', 'Only records whose first token is none of these; not with first.'));
  add(variable.tail, doc('tail 标注尾部', 'true：标注条数之后的 N 个标记值（需要 countAt，不写 index）。', 'true: annotate the N tokens after the width (needs countAt, no index).'));
  const whenCondition = WhenConditionInputSchema.shape;
  add(WhenConditionInputSchema, doc('条件', '一个适用条件。', 'One condition.'));
  add(whenCondition.section, doc('section 决定段', '值决定本规则是否适用的段名，不带方括号，如 "type"。', 'The section whose value decides, without brackets, e.g. "type".'));
  add(whenCondition.index, doc('index token 下标', '该段中决定的 token 下标（从 0 起），省略为 0。', '0-based index of the deciding token in that section; absent = 0.'));
  add(whenCondition.values, doc('values 取值', '使本规则适用的值（规范化后的 token 值：字符串不带反引号，如 "[seeking]"；数字如 "10"），不区分大小写。', 'Values that select the rule (canonical token values: strings without backticks, e.g. "[seeking]"; numbers such as "10"), case-insensitive.'));
  add(target.sectionPattern, doc('sectionPattern 段名模式', '（pvfdoc 扩展）按模式匹配段名（Go path.Match 的一段：* ? [0-9] [^...]，不区分大小写，整名匹配），代替 section，两者只能写一个。', '(pvfdoc extension) Section names by pattern (one Go path.Match segment, case-insensitive, whole name), instead of section; never both.', { examples: ['FRAME[0-9][0-9][0-9]'] }));

  // Annotation
  const annotation = AnnotationInputSchema.shape;
  add(AnnotationInputSchema, {
    id: 'Annotation',
    ...doc('annotation 标注内容', '显示什么：标题、说明与类型。', 'What to show: title, content and type.'),
    allOf: ANNOTATION_CHECKS,
  });
  add(annotation.title, doc('title 标题', '标签文字与提示标题，可以为空。重复记录的规则中 {record}、{column} 替换为从 1 起的序号，{recordIndex} 替换为从 0 起的记录号。', 'Tag text and tooltip heading; may be empty. In rules over records {record} and {column} become 1-based numbers, {recordIndex} the 0-based record number.'));
  add(annotation.content, doc('content 说明', '提示里的补充说明。', 'More tooltip text.'));
  add(annotation.type, { ...doc('type 标注类型', '标注类型。', 'Annotation type.'), ...oneOfChoices(ANNOTATION_TYPES, [empty(FROM_FIELD)]) });
  add(annotation.values, doc('values 枚举值', '值 → 标签，如 {"0": "普通"}；enum 类型必须非空。其它类型也可以写（装备预览用它查标签）。', 'Value → label, e.g. {"0": "普通"}; required and non-empty for type "enum". Allowed on other types (the equipment preview looks labels up in it).'));
  add(annotation.relation, doc('relation 关联名', 'reference 类型：关联名（lists.json 中 relations 的键）。', 'Type "reference": the relation name (a key of relations in lists.json).'));
  add(annotation.pathRoot, doc('pathRoot 路径前缀', 'path 类型：拼在值前面的归档内相对目录，如 "equipment/"；不能以 / 开头，不能含 ..。', 'Type "path": archive-relative folder put before the value, e.g. "equipment/"; no leading / and no "..".'));
  add(annotation.inlineImage, doc('inlineImage 行内图片', 'image 类型：在行内显示图片。', 'Type "image": show the image inline.'));
  add(annotation.sentinels, doc('sentinels 固定含义的值', '（pvfdoc 扩展，enum 与 reference）值 → 标签，这些值有固定含义、不去查找，如 {"-1": "无"}。', '(pvfdoc extension; enum and reference) value → label of values with a fixed meaning that are not looked up, e.g. {"-1": "无"}.', { propertyNames: nonBlank('annotation.sentinels 的键', 'an annotation.sentinels key') }));
  add(annotation.columns, doc('columns 列标题', '（pvfdoc 扩展，text 类型、带重复记录的 token 目标）记录中每一列的标题；"" = 用 title。', '(pvfdoc extension; type "text", token targets with records) a title per column of a record; "" = the annotation title.'));

  // Preview
  const preview = PreviewInputSchema.shape;
  add(PreviewInputSchema, {
    id: 'Preview',
    ...doc('preview 预览', '字段的预览信息（如装备提示预览），只在 fields 中可用。', 'Preview metadata of a field (e.g. the equipment tooltip preview); fields only.'),
    required: ['role', 'group', 'format'],
    anyOf: [
      { required: ['provider'], properties: { provider: { pattern: '\\S' } } },
      { required: ['providers'], properties: { providers: { contains: { pattern: '\\S' } } } },
    ],
  });
  add(preview.provider, doc('provider 预览提供者', '预览提供者名（单个，旧写法），如 "equ"；与 providers 合起来至少要有一个非空名字。', 'Preview provider name (single, legacy form), e.g. "equ"; with providers, at least one non-blank name.', { examples: ['equ'] }));
  add(preview.providers, doc('providers 预览提供者', '多个预览提供者名。', 'Several preview provider names.', { examples: [['equ']] }));
  add(preview.role, doc('role 角色', '字段在预览中的角色，不能为空（由使用方定义，如 name、rarity）。', 'Role of the field in the preview; non-blank, defined by the consumer (e.g. name, rarity).', { ...nonBlank('preview.role'), examples: ['name', 'rarity'] }));
  add(preview.group, doc('group 分组', '预览中的分组，不能为空（如 header、basic）。', 'Group in the preview; non-blank (e.g. header, basic).', { ...nonBlank('preview.group'), examples: ['header', 'basic'] }));
  add(preview.order, doc('order 顺序', '排序键，升序；相同时按字段 id。', 'Sort key, ascending; ties by field id.'));
  add(preview.format, doc('format 显示格式', '显示格式，不能为空（如 text、enum、level、percent）。', 'Display format; non-blank (e.g. text, enum, level, percent).', { ...nonBlank('preview.format'), examples: ['text', 'enum', 'level', 'percent'] }));
  add(preview.label, doc('label 显示标签', '显示标签，替换默认的标题。', 'Display label instead of the default title.'));

  add(TrustInputSchema, {
    id: 'Trust',
    ...doc('trust 可信度', '（pvfdoc 扩展）这条定义的可信程度。', '(pvfdoc extension) How far the definition can be trusted.'),
    ...oneOfChoices(TRUST_LEVELS),
  });

  // Rules and fields
  const common = (shape: typeof RuleInputSchema.shape | typeof FieldInputSchema.shape, noun: string): void => {
    add(shape.pvfVersions, doc('pvfVersions 客户端版本', '只在这些客户端版本生效；省略或 [] = 所有版本。每项必须是某个 layer.json 的 pvfVersions 声明过的版本（都没声明时为 90US、90CN、110US），区分大小写。', 'Client versions this applies to; absent or [] = all. Each must be declared in a layer.json "pvfVersions" (none declared: 90US, 90CN, 110US), case-sensitive.', versionsExample));
    add(shape.match, doc('match 文件匹配', `${noun}适用的文件。`, 'Which files it applies to.'));
    add(shape.target, doc('target 标注目标', `${noun}标注的位置。`, 'Where it annotates.'));
    add(shape.annotation, doc('annotation 标注内容', `${noun}显示的内容。`, 'What it shows.'));
    add(shape.trust, doc('trust 可信度', '（pvfdoc 扩展）可信程度。', '(pvfdoc extension) How far it can be trusted.'));
    add(shape.sources, doc('sources 来源', '（pvfdoc 扩展）依据的来源键，如 "OFF/equipmentsample.equ"；不能有空字符串。', '(pvfdoc extension) Source keys it is based on, e.g. "OFF/equipmentsample.equ"; no blank entries.'));
    add(shape.sources.unwrap().element, nonBlank('sources 的条目', 'a sources entry'));
  };
  const rule = RuleInputSchema.shape;
  add(RuleInputSchema, {
    id: 'Rule',
    ...doc('规则 rule', '一条标注规则。数组顺序即优先级：同一位置上先出现的规则给出标题。', 'One annotation rule. Array order is priority: the first rule on a span gives its title.'),
    required: ['id'],
    allOf: [
      {
        // Without a field, the rule's own target and annotation are all there is.
        if: { required: ['field'], properties: { field: { pattern: '\\S' } } },
        else: {
          required: ['target', 'annotation'],
          properties: {
            target: { required: ['kind'], properties: { kind: notEmptyString(KIND_MESSAGE) } },
            annotation: { required: ['type'], properties: { type: notEmptyString(TYPE_MESSAGE) } },
          },
        },
      },
      CROSS_BLOCK_REF,
    ],
  });
  add(rule.id, doc('id 规则 id', '规则 id，不能为空，在同一层内唯一；后面的层用同一个 id 即覆盖本条。', 'Rule id: non-blank and unique within the layer; a later layer reusing it overrides this rule.', nonBlank('id')));
  add(rule.description, doc('description 说明', '说明文字（只给人看）。', 'Free text for people.'));
  add(rule.field, doc('field 共享字段', '引用共享字段的 id：规则没有自己提供的 match、target、annotation 块取自该字段（整块替换，不逐键合并；kind 或 type 为空的块算没有提供）。', 'Id of a shared field: each of match, target, annotation the rule does not supply comes from the field (whole blocks, never merged key by key; a block with an empty kind or type counts as not supplied).'));
  add(rule.group, doc('group 分组', 'pvfine 规则编辑器里的分组，只用于显示。', 'Display group in the pvfine rule editor; no effect.'));
  common(rule, '规则');

  const field = FieldInputSchema.shape;
  add(FieldInputSchema, {
    id: 'Field',
    ...doc('共享字段 field', '可被规则的 field 引用的定义；它本身也是一条隐式规则 field:<id>（除非有规则引用或覆盖它）。', 'A definition rules can use through "field"; it is also an implicit rule field:<id> unless a rule uses or covers it.'),
    required: ['id', 'target', 'annotation'],
    allOf: [
      {
        properties: {
          target: { required: ['kind'], properties: { kind: notEmptyString(KIND_MESSAGE) } },
          annotation: { required: ['type'], properties: { type: notEmptyString(TYPE_MESSAGE) } },
        },
      },
      CROSS_BLOCK_REF,
    ],
  });
  add(field.id, doc('id 字段 id', '共享字段 id，不能为空，在同一层的字段中唯一（与规则 id 分开）。', 'Field id: non-blank and unique among the layer\'s fields (rules have their own ids).', nonBlank('id')));
  add(field.preview, doc('preview 预览', '预览信息（如装备提示预览）。', 'Preview metadata (e.g. the equipment tooltip preview).'));
  common(field, '字段');

  // Relations
  const relation = RelationInputSchema.shape;
  add(RelationInputSchema, {
    id: 'Relation',
    ...doc('关联 relation', '把 ID 通过 .lst 注册表解析为目标文件与显示名的方式。', 'How an ID is looked up in a .lst registry to find the target file and its display name.'),
    allOf: [
      {
        if: keyIs('kind', ['union']),
        then: { required: ['relations'], properties: { relations: { minItems: 1, items: nonBlank('relations 的成员', 'a union member') } } },
        else: {
          required: ['nameSection'],
          properties: { nameSection: nonBlank('nameSection'), idToken: NON_NEGATIVE, pathToken: NON_NEGATIVE, contextToken: NON_NEGATIVE, recordTokens: NON_NEGATIVE },
        },
      },
      { if: { properties: { kind: { enum: ['', 'list'] } } }, then: { required: ['listPath'], properties: { listPath: nonBlank('listPath') } } },
      {
        if: keyIs('kind', ['contextual']),
        then: {
          required: ['contextPaths', 'recordTokens'],
          properties: { contextPaths: { minProperties: 1, propertyNames: nonBlank('contextPaths 的键', 'a contextPaths key'), additionalProperties: nonBlank('contextPaths 的值', 'a contextPaths list path') }, recordTokens: { minimum: 1 } },
        },
      },
    ],
  });
  add(relation.kind, {
    ...doc('kind 关联类型', '关联类型；省略 = list。', 'Relation kind; absent = list.'),
    ...oneOfChoices(RELATION_KINDS, [empty(RELATION_KIND_EMPTY)]),
  });
  add(relation.listPath, doc('listPath 列表路径', 'list：注册表 .lst 的归档路径，如 "equipment/equipment.lst"。', 'list: archive path of the .lst registry, e.g. "equipment/equipment.lst".', { examples: ['equipment/equipment.lst'] }));
  add(relation.idToken, doc('idToken ID 列', '每条 .lst 记录中 ID token 的下标（从 0 起，省略为 0）。', 'Index of the ID token in each .lst record (0-based; absent = 0).'));
  add(relation.pathToken, doc('pathToken 路径列', '每条 .lst 记录中文件路径 token 的下标（省略为 0）。', 'Index of the file path token in each .lst record (absent = 0).'));
  add(relation.recordTokens, doc('recordTokens 记录宽度', '每条 .lst 记录的 token 数；0 或省略 = max(idToken, pathToken) + 1。必须大于 idToken 和 pathToken；contextual 必须写明。', 'Tokens per .lst record; 0 or absent = max(idToken, pathToken) + 1. Must exceed idToken and pathToken; contextual relations must set it.'));
  add(relation.nameSection, doc('nameSection 名称段', '目标文件里存放显示名的段名，通常是 "name"；不能为空（union 除外）。', 'Section of the target file holding the display name, usually "name"; non-blank (except for unions).', { examples: ['name'] }));
  add(relation.contextToken, doc('contextToken 上下文 token', 'contextual：规则记录中上下文 token 的默认下标（规则的 target.contextIndex 优先）。', 'contextual: default index of the context token in the rule\'s record (the rule\'s target.contextIndex wins).'));
  add(relation.contextPaths, doc('contextPaths 上下文列表', 'contextual：上下文值 → .lst 路径，如 {"[fighter]": "skill/fighterskill.lst"}；键和值都不能为空。', 'contextual: context value → .lst path, e.g. {"[fighter]": "skill/fighterskill.lst"}; no blank keys or values.'));
  add(relation.relations, doc('relations 成员', 'union：依次尝试的成员关联名；不能为空，不能包含自身。', 'union: member relation names, tried in order; not empty, and never the union itself.'));

  // annotations.json (and annotations/*.json)
  const annotationsFile = AnnotationsFileInputSchema.shape;
  add(AnnotationsFileInputSchema, doc(
    'pvfine 标注规则文件（annotations.json、annotations/*.json）',
    '规则层的标注规则：共享字段 fields 与规则 rules（pvfine 编辑器的格式，外加 pvfdoc 扩展键）。',
    'Rule document of a layer: shared fields and rules (the pvfine editor\'s format plus pvfdoc extension keys).',
  ));
  add(annotationsFile.version, version);
  add(annotationsFile.description, doc('description 说明', '说明文字（只给人看）。', 'Free text for people.'));
  add(annotationsFile.relations, {
    ...relations,
    description: `${relations.description as string}\n只在层里没有 lists.json 时生效；annotations/*.json 里不能写。\nUsed only when the layer has no lists.json; annotations/*.json may not have any.`,
  });
  add(annotationsFile.fields, doc('fields 共享字段', '共享字段：规则可以用 field 引用；每个字段本身也是一条隐式规则。', 'Shared fields: rules use them through "field"; each is also an implicit rule.'));
  add(annotationsFile.rules, doc('rules 规则', '标注规则，数组顺序即优先级。', 'Annotation rules; array order is priority.'));

  // lists.json
  const listsFile = ListsFileInputSchema.shape;
  add(ListsFileInputSchema, doc('pvfine 列表关联文件（lists.json）', '规则层的关联：reference 标注通过它们查找 .lst 注册表。', 'The relations of a layer: reference annotations look IDs up in .lst registries through them.'));
  add(listsFile.version, version);
  add(listsFile.description, doc('description 说明', '说明文字（只给人看）。', 'Free text for people.'));
  add(listsFile.relations, relations);

  // rendering.json
  const renderingFile = RenderingFileInputSchema.shape;
  const renderingRule = RenderingRuleInputSchema.shape;
  const renderingTarget = renderingRule.target.unwrap().shape;
  const format = renderingRule.format.unwrap().shape;
  add(RenderingFileInputSchema, doc('pvfine 排版规则文件（rendering.json）', '只影响显示：每行几个 token、哪些段嵌套在未配对的段内；不改变 token 数据。', 'Layout only: tokens per line and which sections nest inside an unpaired one; token data never changes.'));
  add(renderingFile.version, version);
  add(renderingFile.description, doc('description 说明', '说明文字（只给人看）。', 'Free text for people.'));
  add(renderingFile.rules, doc('rules 排版规则', '排版规则。同一范围内匹配越具体越优先（有 extensions、有 glob 各加一分），同分时后面的胜出；段规则优先于文件规则。', 'Rendering rules. In one scope the more specific match wins (one point each for extensions and glob), ties go to the later rule; section rules beat file rules.'));
  add(RenderingRuleInputSchema, {
    id: 'RenderingRule',
    ...doc('排版规则 rendering rule', '一条排版规则。', 'One rendering rule.'),
    required: ['id', 'target', 'format'],
    allOf: [
      { properties: { target: { required: ['kind'] }, format: { required: ['tokensPerLine'] } } },
      {
        if: blockKeyIs('target', 'kind', ['file']),
        then: {
          properties: {
            target: { properties: { section: { pattern: '^\\s*$', patternErrorMessage: bilingual('target.section 仅允许用于 section 规则', 'remove target.section, or set target.kind to "section"') } } },
            format: {
              properties: {
                tokensPerLineIndex: forbidden(bilingual('format.tokensPerLineIndex 只允许用于 section 规则', 'remove format.tokensPerLineIndex, or make this a section rule')),
                nestedSections: { maxItems: 0 },
              },
            },
          },
        },
      },
      { if: blockKeyIs('target', 'kind', ['section']), then: { properties: { target: { required: ['section'], properties: { section: nonBlank('target.section') } } } } },
    ],
  });
  add(renderingRule.id, doc('id 规则 id', '排版规则 id，不能为空，在同一层内唯一（比较时去掉首尾空白）。', 'Rendering rule id: non-blank and unique within the layer (compared trimmed).', nonBlank('id')));
  add(renderingRule.description, doc('description 说明', '说明文字（只给人看）。', 'Free text for people.'));
  add(renderingRule.match, doc('match 文件匹配', '适用的文件；{} 或省略 = 所有文件。', 'Which files it applies to; {} or absent = every file.'));
  add(renderingRule.target, doc('target 范围', '作用范围：整个文件，或某个段。', 'Scope: the whole file, or one section.'));
  add(renderingTarget.kind, {
    ...doc('kind 范围类型', '范围类型。', 'Scope kind.'),
    ...oneOfChoices(RENDERING_TARGET_KINDS),
  });
  add(renderingTarget.section, doc('section 段名', 'section 规则：段名（不带方括号）；file 规则不能写。', 'Section rules: the section name without brackets; file rules have none.'));
  add(renderingRule.format, doc('format 换行格式', '换行格式。', 'Line layout.'));
  add(format.tokensPerLine, doc('tokensPerLine 每行 token 数', '每行 token 数，必须 > 0。', 'Tokens per line; must be > 0.', { minimum: 1 }));
  add(format.offset, doc('offset 起始跳过', '开头先跳过的 token 数（之后再按 tokensPerLine 换行），≥ 0。', 'Leading tokens before the per-line count starts; ≥ 0.', NON_NEGATIVE));
  add(format.tokensPerLineIndex, doc('tokensPerLineIndex 宽度 token', 'section 规则：某个 token 的下标，它的正整数值作为每行 token 数；≥ 0。', 'Section rules: index of a token whose positive integer value is the tokens per line; ≥ 0.', NON_NEGATIVE));
  add(format.standaloneValues, doc('standaloneValues 独占一行的值', '这些整数值的 token 单独占一行并重新计数（与标注规则的 standaloneValues 无关）。', 'Integer tokens with these values sit alone on a line and restart the count (unrelated to the annotation rules\' standaloneValues).'));
  add(format.nestedSections, doc('nestedSections 嵌套段', 'section 规则：可以嵌套在这个未配对段内部的段名（不带方括号）。', 'Section rules: names of sections (without brackets) that nest inside this unpaired section.'));

  // layer.json
  const layer = LayerManifestInputSchema.shape;
  add(LayerManifestInputSchema, doc('pvfdoc 规则层清单（layer.json）', '每个规则层文件夹都需要它：层名、类型、声明的客户端版本与要关闭的定义。', 'Every layer folder needs it: the layer name, kind, declared client versions and the definitions to switch off.'));
  add(layer.name, doc('name 层名', '层名：1–64 个字母、数字、"."、"_" 或 "-"，以字母或数字开头；每个层的名字不同。', 'Layer name: 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit; unique among the layers.', {
    pattern: '^\\s*[A-Za-z0-9][A-Za-z0-9._-]{0,63}\\s*$',
    patternErrorMessage: bilingual('层名必须是 1–64 个字母、数字、"."、"_" 或 "-"，以字母或数字开头', 'a layer name is 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit'),
  }));
  add(layer.kind, {
    ...doc('kind 层类型', '层类型；其它值会得到警告，定义的来源记为 unknown。', 'Layer kind; any other value loads with a warning and its definitions get source "unknown".'),
    ...oneOfChoices(LAYER_KINDS),
  });
  add(layer.$schema, doc('$schema 编辑器用的 schema', '给编辑器看的 schema 地址（例如 ./node_modules/pvfdoc/schemas/layer.schema.json）；pvfdoc 读取时忽略它。', 'The schema an editor should use (e.g. ./node_modules/pvfdoc/schemas/layer.schema.json); pvfdoc ignores it.'));
  add(layer.description, doc('description 说明', '层的说明，显示在参考站点的首页。', 'Description of the layer, shown on the reference site\'s overview.'));
  add(layer.pvfVersions, doc('pvfVersions 声明的版本', '本层声明的客户端版本（所有层按顺序合并）；规则只能使用声明过的版本。没有任何层声明时为 90US、90CN、110US。', 'Client versions this layer declares (all layers\' lists are joined in order); rules may use only declared versions. None declared: 90US, 90CN, 110US.', versionsExample));
  add(layer.pvfVersions.unwrap().element, {
    pattern: '^\\S+$',
    patternErrorMessage: bilingual('版本名不能为空，也不能含空白', 'write a client version name without spaces, such as "110US"'),
  });
  add(layer.disable, doc('disable 关闭的定义', '关闭前面的层中的定义：rule:<id>、field:<id>、relation:<名称> 或 rendering:<id>，如 "rule:global.cool time"。', 'Switch off definitions of earlier layers: rule:<id>, field:<id>, relation:<name> or rendering:<id>, e.g. "rule:global.cool time".', { examples: [['rule:builtin.equ.name']] }));
  add(layer.disable.unwrap().element, {
    pattern: '^(rule|field|relation|rendering):[\\s\\S]*\\S',
    patternErrorMessage: bilingual('disable 的条目写作 rule:<id>、field:<id>、relation:<名称> 或 rendering:<id>', 'write rule:<id>, field:<id>, relation:<name> or rendering:<id>'),
  });
  return { registry: notes, definitions };
}
