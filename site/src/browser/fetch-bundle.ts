/**
 * Opens the site's copy of the bundle in the browser through the same reader the server uses
 * (`openBundle` of runtime/bundle/load-bundle.ts): same schema, tokenizer and hash checks, same
 * in-memory bundle, so `searchDocuments` ranks exactly as the MCP tool does. The files are fetched
 * as bytes; each is hashed natively (WebCrypto) when the page is a secure context (https, localhost),
 * else the reader hashes it in JavaScript.
 */
import { MANIFEST_FILE } from '../../../runtime/bundle/constants.js';
import { openBundle, type Bundle } from '../../../runtime/bundle/load-bundle.js';
import { BUNDLE_FILES } from '../../../runtime/bundle/schema.js';
import { rememberDigest } from './shims/node-crypto.js';

export async function fetchBundle(bundleUrl: string): Promise<Bundle> {
  const names = [MANIFEST_FILE, ...BUNDLE_FILES];
  const texts = new Map<string, string>();
  const decoder = new TextDecoder();
  const subtle = globalThis.crypto?.subtle as SubtleCrypto | undefined;
  await Promise.all(
    names.map(async (name) => {
      const response = await fetch(new URL(name, bundleUrl));
      if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
      const bytes = await response.arrayBuffer();
      const text = decoder.decode(bytes);
      if (subtle) rememberDigest(text, toHex(await subtle.digest('SHA-256', bytes)));
      texts.set(name, text);
    }),
  );
  return openBundle((name) => {
    const text = texts.get(name);
    if (text === undefined) throw new Error(`${name} was not fetched`);
    return text;
  });
}

function toHex(digest: ArrayBuffer): string {
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
