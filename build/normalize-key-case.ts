import { z } from 'zod';

/**
 * pvfine reads rule files with Go's decoder, which matches keys case-insensitively ("Section" works as
 * "section"). We accept such keys too, rename them in place and report each one, so files written for
 * pvfine load while authors learn the exact spelling.
 */
export function normalizeKeyCase(
  value: unknown,
  schema: z.ZodType,
  path: string,
  warn: (path: string, message: string) => void,
): void {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    if (!isPlainObject(value)) return;
    const shape = inner.shape as Record<string, z.ZodType>;
    const known = Object.keys(shape);
    for (const key of Object.keys(value)) {
      if (key in shape) continue;
      const canonical = known.find((k) => k.toLowerCase() === key.toLowerCase());
      if (canonical === undefined || canonical in value) continue;
      value[canonical] = value[key];
      delete value[key];
      warn(appendKey(path, key), `key "${key}" is read as "${canonical}"; write it as "${canonical}" (keys are case-sensitive here)`);
    }
    for (const key of known) {
      if (key in value) normalizeKeyCase(value[key], shape[key] as z.ZodType, appendKey(path, key), warn);
    }
  } else if (inner instanceof z.ZodArray) {
    if (!Array.isArray(value)) return;
    value.forEach((item, i) => normalizeKeyCase(item, inner.element as z.ZodType, `${path}[${i}]`, warn));
  } else if (inner instanceof z.ZodRecord) {
    if (!isPlainObject(value)) return;
    const valueType = (inner as unknown as { valueType: z.ZodType }).valueType;
    for (const key of Object.keys(value)) normalizeKeyCase(value[key], valueType, appendKey(path, key), warn);
  }
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Same notation as every other problem path: `.key` for identifiers, `["key"]` otherwise. */
function appendKey(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}
