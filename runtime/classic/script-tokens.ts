/**
 * Compiled script payloads (pvf-classic-format §4.1–§4.3): `B0 D0`, then 5-byte records of a type byte
 * and an int32 value; trailing bytes (fewer than 5) are ignored. Sections and nesting are not encoded.
 */
import { invalidArchiveFile } from '../script/archive-error.js';

/** Classic token types (§4.3). */
export const TokenType = {
  Int: 2,
  IntEx: 3,
  Float: 4,
  Section: 5,
  Command: 6,
  String: 7,
  CommandSeparator: 8,
  LinkIndex: 9,
  LinkKey: 10,
} as const;

const MIN_TOKEN_TYPE = 2;
const MAX_TOKEN_TYPE = 10;

/** Token types whose value is a `stringtable.bin` index. */
export function isStringToken(type: number): boolean {
  return type === TokenType.Section || type === TokenType.Command || type === TokenType.String || type === TokenType.CommandSeparator || type === TokenType.LinkKey;
}

/** Whether a file is a compiled script: it starts with `B0 D0` (decided by content, not extension). */
export function isCompiledScript(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0xb0 && bytes[1] === 0xd0;
}

export interface ScriptTokens {
  count: number;
  types: Uint8Array;
  values: Int32Array;
}

/** Byte offset of token i inside the file. */
export function tokenOffset(i: number): number {
  return 2 + 5 * i;
}

/** Arrays a reader lends to readScriptTokens so that a read allocates none (grown as needed). */
export class TokenScratch {
  types = new Uint8Array(256);
  values = new Int32Array(256);

  fit(count: number): void {
    if (count <= this.types.length) return;
    let size = this.types.length;
    while (size < count) size *= 2;
    this.types = new Uint8Array(size);
    this.values = new Int32Array(size);
  }
}

/**
 * The token records of a compiled script. A type outside 2..10 is INVALID_ARCHIVE naming the archive,
 * the file and the byte offset of the record. With `scratch`, the arrays are views of its arrays, valid
 * until its next use.
 */
export function readScriptTokens(bytes: Uint8Array, archive: string, path: string, scratch?: TokenScratch): ScriptTokens {
  if (!isCompiledScript(bytes)) throw invalidArchiveFile(archive, path, 'is not a compiled script (it does not start with B0 D0)');
  const count = Math.floor((bytes.length - 2) / 5);
  let types: Uint8Array;
  let values: Int32Array;
  if (scratch) {
    scratch.fit(count);
    types = scratch.types.subarray(0, count);
    values = scratch.values.subarray(0, count);
  } else {
    types = new Uint8Array(count);
    values = new Int32Array(count);
  }
  for (let i = 0, at = 2; i < count; i++, at += 5) {
    const type = bytes[at] as number;
    if (type < MIN_TOKEN_TYPE || type > MAX_TOKEN_TYPE) {
      throw invalidArchiveFile(archive, path, `token ${i} at byte offset ${at} has type ${type}, outside the classic token types 2..10`, { offset: at, tokenType: type });
    }
    types[i] = type;
    // Little-endian int32 by hand: a DataView per file is an allocation and no faster for 4 bytes.
    values[i] = (bytes[at + 1] as number) | ((bytes[at + 2] as number) << 8) | ((bytes[at + 3] as number) << 16) | ((bytes[at + 4] as number) << 24);
  }
  return { count, types, values };
}
