/**
 * Where the built site keeps its own files (next to the pages): the browser search script, an exact
 * copy of the bundle, in a folder named by the revision so a browser never mixes two snapshots, and
 * inside it the light search files (site/src/browser/search-files.ts), in a folder named by the hash of
 * their search.json. Shared by the build (which writes them) and the pages (which link them).
 */
export const ASSET_DIR = '_pvfdoc';
export const SEARCH_SCRIPT = `${ASSET_DIR}/search.js`;
export const SITE_STAMP = `${ASSET_DIR}/site.json`;

export function bundleAssetDir(rulesRevision: string): string {
  return `${ASSET_DIR}/bundle-${rulesRevision}/`;
}

/** The light search files' folder; `dirName` is search-files.ts `searchDirName` of their search.json. */
export function searchAssetDir(rulesRevision: string, dirName: string): string {
  return `${bundleAssetDir(rulesRevision)}${dirName}/`;
}

/** Environment variables the build passes to the pages (Astro renders them in the build's own process). */
export const ENV_BUNDLE_DIR = 'PVFDOC_SITE_BUNDLE';
export const ENV_CHANGES_FILE = 'PVFDOC_SITE_CHANGES';
/** The sha256 of the light search's search.json, which the search page carries. */
export const ENV_SEARCH_MANIFEST = 'PVFDOC_SITE_SEARCH_SHA256';
