/**
 * The output schema a tool publishes in tools/list: its top-level properties with their types (literals
 * and enums exact), nested objects bare, no descriptions. The full shapes (the zod schemas the tools' results are built and
 * tested against) are documented in docs/mcp.md and the skill resource; publishing them cost about
 * 26 000 characters of every agent's context before its first call (issue 14: tools/list ≤ 20 000).
 *
 * The published schema only loosens the full one (objects accept more, nothing is required that the
 * full schema leaves out), so the SDK's check of structuredContent against it still passes.
 */
import { z } from 'zod';

type Schema = z.core.$ZodType;

/** Published form of a tool's full output schema. */
export function publishedOutputSchema(full: z.ZodObject): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, value] of Object.entries(full.shape)) shape[key] = compactSchema(value as Schema, 0);
  return z.looseObject(shape);
}

/** `schema` without descriptions, its object properties kept down to `depth` more levels (0: a bare object). */
function compactSchema(schema: Schema, depth: number): z.ZodType {
  const def = schema._zod.def as unknown as { type: string; innerType?: Schema; element?: Schema; shape?: Record<string, Schema>; options?: Schema[]; values?: unknown[]; entries?: Record<string, string> };
  switch (def.type) {
    case 'string':
      return z.string();
    case 'number':
    case 'int':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'null':
      return z.null();
    // Literals and enums are short and say what the values are: kept exactly.
    case 'literal':
    case 'enum':
      return schema as z.ZodType;
    case 'optional':
      return compactSchema(def.innerType as Schema, depth).optional();
    case 'nullable':
      return compactSchema(def.innerType as Schema, depth).nullable();
    case 'array':
      return z.array(compactSchema(def.element as Schema, depth));
    case 'union':
      return z.union((def.options ?? []).map((o) => compactSchema(o, depth)) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    case 'object': {
      if (depth <= 0) return z.looseObject({});
      const shape: Record<string, z.ZodType> = {};
      for (const [key, value] of Object.entries(def.shape ?? {})) shape[key] = compactSchema(value, depth - 1);
      return z.looseObject(shape);
    }
    case 'record':
      return z.record(z.string(), z.unknown());
    default:
      return z.unknown();
  }
}
