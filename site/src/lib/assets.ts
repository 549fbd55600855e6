/**
 * Where the built site keeps its own files (next to the pages): the browser search script and an exact
 * copy of the bundle it searches, in a folder named by the revision so a browser never mixes two
 * snapshots. Shared by the build (which writes them) and the pages (which link them).
 */
export const ASSET_DIR = '_pvfdoc';
export const SEARCH_SCRIPT = `${ASSET_DIR}/search.js`;
export const SITE_STAMP = `${ASSET_DIR}/site.json`;

export function bundleAssetDir(rulesRevision: string): string {
  return `${ASSET_DIR}/bundle-${rulesRevision}/`;
}

/** Environment variables the build passes to the pages (Astro renders them in the build's own process). */
export const ENV_BUNDLE_DIR = 'PVFDOC_SITE_BUNDLE';
export const ENV_CHANGES_FILE = 'PVFDOC_SITE_CHANGES';
