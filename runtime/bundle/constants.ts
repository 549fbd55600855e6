/** Client versions pvfine knows; used when no layer declares its own (rule-format §1.12). */
export const DEFAULT_PVF_VERSIONS = ['90US', '90CN', '110US'] as const;

/** The version context of an archive whose client version is unknown: only unrestricted rules apply. */
export const UNKNOWN_VERSION = '';

/** Search summaries are cut to this many Unicode code points (protocol: 摘要最多 512 个 Unicode 字符). */
export const SUMMARY_MAX_CODE_POINTS = 512;

export const ENGINE_NAME = 'pvfdoc';

/** Kept equal to package.json "version" (a test checks it). */
export const ENGINE_VERSION = '0.1.0';

/** Name of the pointer file inside a snapshots folder that holds the revision to serve. */
export const CURRENT_POINTER = 'current';

export const MANIFEST_FILE = 'manifest.json';
