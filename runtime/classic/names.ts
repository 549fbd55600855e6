/**
 * Stored file names (pvf-classic-format §2.6): CP949 bytes (ASCII in practice), decoded regardless of
 * the text encoding. The index over them is name-index.ts.
 */
import iconv from 'iconv-lite';

/** Encoding of stored names. */
const NAME_ENCODING = 'cp949';

/** Decodes stored name bytes (CP949, with an ASCII fast path). */
export function decodeName(bytes: Uint8Array): string {
  for (let i = 0; i < bytes.length; i++) {
    if ((bytes[i] as number) >= 0x80) return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), NAME_ENCODING);
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Encodes a name as stored (CP949). */
export function encodeName(name: string): Uint8Array {
  return iconv.encode(name, NAME_ENCODING);
}
