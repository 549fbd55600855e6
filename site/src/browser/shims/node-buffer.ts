/**
 * The part of Node's global `Buffer` the bundle reader and the search code use, for the browser build
 * (injected by esbuild in place of the global): byte lengths of UTF-8 text (search's response budget)
 * and UTF-8 / base64url conversion (page cursors).
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

class BrowserBytes extends Uint8Array {
  override toString(encoding = 'utf8'): string {
    if (encoding === 'base64url') return encodeBase64Url(this);
    if (encoding === 'utf8' || encoding === 'utf-8') return decoder.decode(this);
    throw new Error(`Buffer.toString: ${encoding} is not available in the browser`);
  }
}

function from(data: unknown, encodingOrOffset?: unknown, length?: unknown): BrowserBytes {
  if (typeof data === 'string') {
    if (encodingOrOffset === 'base64url' || encodingOrOffset === 'base64') return new BrowserBytes(decodeBase64(data));
    return new BrowserBytes(encoder.encode(data));
  }
  if (data instanceof ArrayBuffer) {
    const offset = typeof encodingOrOffset === 'number' ? encodingOrOffset : 0;
    return new BrowserBytes(new Uint8Array(data, offset, typeof length === 'number' ? length : data.byteLength - offset));
  }
  if (data instanceof Uint8Array) return new BrowserBytes(data);
  throw new TypeError('Buffer.from: unsupported input in the browser');
}

export const Buffer = {
  byteLength: (text: string): number => encoder.encode(text).length,
  from,
};

function encodeBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let c = 0; c < chars; c++) out += ALPHABET[(n >>> (18 - 6 * c)) & 63];
  }
  return out;
}

/** Like Node: characters outside the alphabet are skipped, stray bits of the last character ignored. */
function decodeBase64(text: string): Uint8Array {
  const values: number[] = [];
  for (const ch of text.replace(/\+/g, '-').replace(/\//g, '_')) {
    const v = ALPHABET.indexOf(ch);
    if (v >= 0) values.push(v);
  }
  const out: number[] = [];
  for (let i = 0; i < values.length; i += 4) {
    const chunk = values.slice(i, i + 4);
    const n = chunk.reduce((acc, v, j) => acc | (v << (18 - 6 * j)), 0);
    const bytes = chunk.length === 4 ? 3 : chunk.length === 3 ? 2 : chunk.length === 2 ? 1 : 0;
    for (let b = 0; b < bytes; b++) out.push((n >>> (16 - 8 * b)) & 255);
  }
  return new Uint8Array(out);
}
