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

/**
 * The token records of a compiled script. A type outside 2..10 is INVALID_ARCHIVE naming the archive,
 * the file and the byte offset of the record.
 */
export function readScriptTokens(bytes: Uint8Array, archive: string, path: string): ScriptTokens {
  if (!isCompiledScript(bytes)) throw invalidArchiveFile(archive, path, 'is not a compiled script (it does not start with B0 D0)');
  const count = Math.floor((bytes.length - 2) / 5);
  const types = new Uint8Array(count);
  const values = new Int32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < count; i++) {
    const at = tokenOffset(i);
    const type = bytes[at] as number;
    if (type < MIN_TOKEN_TYPE || type > MAX_TOKEN_TYPE) {
      throw invalidArchiveFile(archive, path, `token ${i} at byte offset ${at} has type ${type}, outside the classic token types 2..10`, { offset: at, tokenType: type });
    }
    types[i] = type;
    values[i] = view.getInt32(at + 1, true);
  }
  return { count, types, values };
}
