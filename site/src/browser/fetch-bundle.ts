/**
 * Opens the site's light search (search-files.ts) in the browser through the server's reader
 * (`openSearchBundle` of runtime/bundle/load-bundle.ts): same schema, tokenizer and hash checks of
 * manifest.json, search-index.json, values.json and relations.json, documents from the search head,
 * so `searchDocuments` ranks exactly as the MCP tool does. Contents arrive in shards: `run` repeats a
 * search until it read no content that had not arrived, fetching the shards it asked for in between.
 *
 * Every file is checked before it is used: search.json against the sha256 the page carries, the head,
 * the shards and the bundle's manifest.json against search.json, the bundle files against the
 * manifest. Files are hashed natively (WebCrypto) when the page is a secure context (https,
 * localhost), else in JavaScript.
 */
import { MANIFEST_FILE } from '../../../runtime/bundle/constants.js';
import { openSearchBundle, SEARCH_BUNDLE_FILES, type Bundle, type SearchBundleFileName } from '../../../runtime/bundle/load-bundle.js';
import { ContentStore, headDocuments, parseSearchManifest, SEARCH_MANIFEST_NAME, SearchFilesError, type SearchManifest, type ShardRef } from './search-files.js';
import { rememberDigest } from './shims/node-crypto.js';
import { sha256HexOfBytes } from './shims/sha256.js';

export interface LightSearchLocation {
  /** URL of the site's bundle copy (a folder, ending in "/"). */
  bundleUrl: string;
  /** URL of the search files' folder (ending in "/"). */
  searchUrl: string;
  /** sha256 of search.json, as written into the page. */
  manifestSha256: string;
}

export interface LightSearch {
  bundle: Bundle;
  manifest: SearchManifest;
  /**
   * Runs `search` (synchronous, over `bundle`) until it reads only contents that have arrived, and
   * returns its last answer; an error it throws counts only when it read nothing missing.
   */
  run<T>(search: () => T): Promise<T>;
  /** Bytes of every file fetched so far, and how many shards of how many. */
  fetched(): { bytes: number; shards: number; of: number };
}

export async function openLightSearch(where: LightSearchLocation): Promise<LightSearch> {
  const decoder = new TextDecoder();
  let bytesFetched = 0;
  const get = async (url: URL, name: string): Promise<ArrayBuffer> => {
    const response = await fetch(url);
    if (!response.ok) throw new SearchFilesError(`${name}: HTTP ${response.status}`);
    const bytes = await response.arrayBuffer();
    bytesFetched += bytes.byteLength;
    return bytes;
  };
  /** A file's text once its bytes match `sha256`. */
  const checked = async (url: URL, name: string, sha256: string): Promise<string> => {
    const bytes = await get(url, name);
    if ((await digest(bytes)) !== sha256) {
      throw new SearchFilesError(`${name} does not match its sha256 in ${name === SEARCH_MANIFEST_NAME ? 'the search page' : SEARCH_MANIFEST_NAME}: the site's copy is damaged or was changed; rebuild the site with pvfdoc site.`);
    }
    return decoder.decode(bytes);
  };

  const manifest = parseSearchManifest(await checked(new URL(SEARCH_MANIFEST_NAME, where.searchUrl), SEARCH_MANIFEST_NAME, where.manifestSha256));
  const texts = new Map<SearchBundleFileName, string>();
  const [headText] = await Promise.all([
    checked(new URL(manifest.head.name, where.searchUrl), manifest.head.name, manifest.head.sha256),
    ...SEARCH_BUNDLE_FILES.map(async (name) => {
      const bytes = await get(new URL(name, where.bundleUrl), name);
      const text = decoder.decode(bytes);
      const hex = await digest(bytes);
      if (name === MANIFEST_FILE && hex !== manifest.bundleManifestSha256) {
        throw new SearchFilesError(`${MANIFEST_FILE} of the bundle copy does not match its sha256 in ${SEARCH_MANIFEST_NAME}: the site's copy is damaged or mixes two builds; rebuild the site with pvfdoc site.`);
      }
      // The reader's synchronous hash check then finds the digest ready.
      rememberDigest(text, hex);
      texts.set(name, text);
    }),
  ]);
  const contents = new ContentStore(manifest.documents);
  const bundle = openSearchBundle(
    (name) => {
      const text = texts.get(name);
      if (text === undefined) throw new SearchFilesError(`${name} was not fetched`);
      return text;
    },
    (documentIds) => headDocuments(headText, documentIds, contents),
  );
  if (bundle.rulesRevision !== manifest.rulesRevision) {
    throw new SearchFilesError(`${SEARCH_MANIFEST_NAME} belongs to revision ${manifest.rulesRevision}, the bundle copy to ${bundle.rulesRevision}; rebuild the site with pvfdoc site.`);
  }

  const shards = new Map<number, Promise<void>>();
  const shardOf = (position: number): number => {
    let lo = 0;
    let hi = manifest.shards.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((manifest.shards[mid] as ShardRef).first <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const loadShard = (index: number): Promise<void> => {
    let loading = shards.get(index);
    if (loading === undefined) {
      const ref = manifest.shards[index] as ShardRef;
      loading = checked(new URL(ref.name, where.searchUrl), ref.name, ref.sha256).then((text) => contents.add(ref, text));
      // A failed shard is tried again by the next search, not remembered as loaded.
      loading.catch(() => shards.delete(index));
      shards.set(index, loading);
    }
    return loading;
  };

  return {
    bundle,
    manifest,
    async run<T>(search: () => T): Promise<T> {
      contents.takeMissing();
      for (;;) {
        let answer: { value: T } | { error: unknown };
        try {
          answer = { value: search() };
        } catch (error) {
          answer = { error };
        }
        const missing = contents.takeMissing();
        if (missing.length === 0) {
          if ('error' in answer) throw answer.error;
          return answer.value;
        }
        // Each round loads at least one shard that was missing, so this ends after every shard at most.
        await Promise.all([...new Set(missing.map(shardOf))].map(loadShard));
      }
    },
    fetched: () => ({ bytes: bytesFetched, shards: [...shards.keys()].length, of: manifest.shards.length }),
  };
}

async function digest(bytes: ArrayBuffer): Promise<string> {
  // Absent where the page is not a secure context (plain http other than localhost).
  const subtle = globalThis.crypto?.subtle as typeof globalThis.crypto.subtle | undefined;
  if (!subtle) return sha256HexOfBytes(new Uint8Array(bytes));
  let hex = '';
  for (const byte of new Uint8Array(await subtle.digest('SHA-256', bytes))) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
