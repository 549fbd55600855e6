import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no insignificant whitespace, `undefined`
 * members dropped. Same value → same bytes, whatever order the keys were written in.
 *
 * Written out by hand because `JSON.stringify` always emits integer-like keys ("2", "10") first in
 * numeric order, which is neither source order nor sorted order.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

function write(value: unknown, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null');
  } else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      write(item, out);
    });
    out.push(']');
  } else if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    out.push('{');
    let first = true;
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      if (member === undefined) continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      write(member, out);
    }
    out.push('}');
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonical JSON cannot hold ${value}`);
    out.push(JSON.stringify(value));
  } else if (typeof value === 'string' || typeof value === 'boolean') {
    out.push(JSON.stringify(value));
  } else {
    throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
  }
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
