/**
 * JSON Schemas (draft-07) of the rule files, for editors: generated from the zod shapes the loader
 * checks (build/input-schema.ts) plus the notes of rule-json-schema-notes.ts. They are tracked in
 * `schemas/` (written by `npm run schemas`; test/build/rule-json-schemas.test.ts fails when a tracked
 * file differs from a fresh one), shipped in the npm package and served by the site at
 * `/schemas/<name>.schema.json`. docs/editor-schemas.md says how to use them.
 */
import { z } from 'zod';
import { AnnotationsFileInputSchema, LayerManifestInputSchema, ListsFileInputSchema, RenderingFileInputSchema } from './input-schema.js';
import { LAYER_FILES } from './load-layers.js';
import { ruleSchemaNotes, type RuleSchemaFile } from './rule-json-schema-notes.js';

/** Where the tracked schema files live, relative to the repository (and package) root. */
export const RULE_SCHEMA_DIR = 'schemas';

export interface RuleSchemaInfo {
  name: RuleSchemaFile;
  /** File name inside RULE_SCHEMA_DIR, also the last URL segment on the site. */
  fileName: string;
  /** The layer files it describes, as patterns relative to a layer folder. */
  layerFiles: readonly string[];
}

const INPUT_SCHEMAS: Record<RuleSchemaFile, z.ZodType> = {
  annotations: AnnotationsFileInputSchema,
  lists: ListsFileInputSchema,
  rendering: RenderingFileInputSchema,
  layer: LayerManifestInputSchema,
};

export const RULE_SCHEMAS: readonly RuleSchemaInfo[] = [
  { name: 'annotations', fileName: 'annotations.schema.json', layerFiles: [LAYER_FILES.annotations, `${LAYER_FILES.annotationsFolder}/*.json`] },
  { name: 'lists', fileName: 'lists.schema.json', layerFiles: [LAYER_FILES.lists] },
  { name: 'rendering', fileName: 'rendering.schema.json', layerFiles: [LAYER_FILES.rendering] },
  { name: 'layer', fileName: 'layer.schema.json', layerFiles: [LAYER_FILES.manifest] },
];

const GENERATED = 'Generated from build/input-schema.ts and build/rule-json-schema-notes.ts by `npm run schemas`; do not edit.';

type Json = Record<string, unknown>;

/** The JSON Schema of one rule file. */
export function ruleJsonSchema(name: RuleSchemaFile): Json {
  const notes = ruleSchemaNotes(name);
  const generated = z.toJSONSchema(INPUT_SCHEMAS[name], {
    target: 'draft-07',
    metadata: notes.registry,
    unrepresentable: 'throw',
    override: ({ jsonSchema }) => {
      // A closed set is written as oneOf [{const, description}]; zod's own enum beside it would give
      // every wrong value a second, less helpful message.
      if (Array.isArray(jsonSchema.oneOf) && Array.isArray(jsonSchema.enum)) delete jsonSchema.enum;
    },
  }) as Json;
  const { $schema, definitions, ...rest } = generated;
  const all = { ...(definitions as Json | undefined), ...notes.definitions };
  return { $schema, $comment: GENERATED, ...rest, ...(Object.keys(all).length > 0 ? { definitions: all } : {}) };
}

/** The tracked file's text: two-space JSON and a final newline. */
export function ruleJsonSchemaText(name: RuleSchemaFile): string {
  return `${JSON.stringify(ruleJsonSchema(name), null, 2)}\n`;
}
