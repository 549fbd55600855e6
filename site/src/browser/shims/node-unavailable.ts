/**
 * Stand-in for node:fs, node:fs/promises and node:path in the browser build. The bundle reader module
 * imports them for `loadBundle` (reading a folder from disk), which the browser never calls: it opens
 * fetched files through `openBundle`. Calling any of these is a bug, and says so.
 */
function unavailable(name: string): () => never {
  return () => {
    throw new Error(`${name} is not available in the browser (the site opens bundles with openBundle)`);
  };
}

export const readFile = unavailable('fs.readFile');
export const readFileSync = unavailable('fs.readFileSync');
export const readdir = unavailable('fs.readdir');
export const watch = unavailable('fs.watch');
export const join = unavailable('path.join');
export const resolve = unavailable('path.resolve');
export const dirname = unavailable('path.dirname');
export const basename = unavailable('path.basename');

export default { readFile, readFileSync, readdir, watch, join, resolve, dirname, basename };
