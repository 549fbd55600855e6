/**
 * The data every page reads, loaded once per build: the bundle named by the build (through the
 * environment, since Astro renders the pages inside the build's own process), the grouping model, and
 * the changes page's data.
 */
import { readFile } from 'node:fs/promises';
import { loadBundle } from '../../../runtime/bundle/load-bundle.js';
import { ENV_BUNDLE_DIR, ENV_CHANGES_FILE } from './assets.js';
import { NO_CHANGES_DATA, type ChangesData } from './changes.js';
import { buildSiteModel, type SiteModel } from './model.js';

let cached: { key: string; model: Promise<SiteModel>; changes: Promise<ChangesData> } | undefined;

function current() {
  const dir = process.env[ENV_BUNDLE_DIR];
  if (!dir) throw new Error(`${ENV_BUNDLE_DIR} is not set: build the site with "pvfdoc site", which names the snapshot`);
  const changesFile = process.env[ENV_CHANGES_FILE] ?? '';
  const key = `${dir}\u0000${changesFile}`;
  if (cached?.key !== key) {
    cached = {
      key,
      model: loadBundle(dir).then(buildSiteModel),
      changes: changesFile === '' ? Promise.resolve(NO_CHANGES_DATA) : readFile(changesFile, 'utf8').then((text) => JSON.parse(text) as ChangesData),
    };
  }
  return cached;
}

export function siteModel(): Promise<SiteModel> {
  return current().model;
}

export function changesData(): Promise<ChangesData> {
  return current().changes;
}
