/**
 * The part of node:crypto the bundle reader and the search cursors use, for the browser build:
 * `createHash('sha256').update(data).digest('hex')`. Whole bundle files are hashed natively
 * (WebCrypto, asynchronously) while they are fetched, and `rememberDigest` hands those digests over,
 * so the reader's synchronous hash check of a multi-megabyte file costs a map lookup; anything else
 * (cursor checksums, small texts) is hashed here in JavaScript.
 */
import { sha256HexOfBytes } from './sha256.js';

const remembered = new Map<string, string>();
const encoder = new TextEncoder();

/** The SHA-256 hex digest of the UTF-8 bytes `text` was decoded from. */
export function rememberDigest(text: string, hex: string): void {
  remembered.set(text, hex);
}

export function createHash(algorithm: string) {
  if (algorithm !== 'sha256') throw new Error(`createHash: only sha256 is available in the browser, not ${algorithm}`);
  const parts: (string | Uint8Array)[] = [];
  const hash = {
    update(data: string | Uint8Array) {
      parts.push(data);
      return hash;
    },
    digest(encoding?: string): string {
      if (encoding !== 'hex') throw new Error('digest: only hex digests are available in the browser');
      const only = parts.length === 1 ? parts[0] : undefined;
      if (typeof only === 'string') {
        const known = remembered.get(only);
        if (known !== undefined) return known;
      }
      const chunks = parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
      const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      return sha256HexOfBytes(bytes);
    },
  };
  return hash;
}

export default { createHash };
