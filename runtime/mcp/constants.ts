/** Constants of the MCP server (ARCHITECTURE §5). */

export const SERVER_NAME = 'pvfdoc';

/** Every pvfdoc tool only reads: the four hints, always all four (mcp-conventions: Writing a tool). */
export const READ_ONLY_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** `_meta` key of a tool error result; holds `{ code, message, hint, data }` (see tool-error.ts). */
export const ERROR_META_KEY = 'pvfdoc/error';

/** URI of the usage guide for agents. */
export const SKILL_URI = 'skill://pvf-annotations/SKILL.md';

/** read_file returns at most this many bytes of UTF-8 text, cut at a line boundary. */
export const MAX_READ_FILE_BYTES = 256 * 1024;

export const DEFAULT_LIST_FILES_LIMIT = 200;
export const MAX_LIST_FILES_LIMIT = 1000;

/** The readable `content` text of a result lists at most this many items; structuredContent has them all. */
export const MAX_TEXT_ITEMS = 50;

/** Largest HTTP request body accepted by the Streamable HTTP transport. */
export const MAX_HTTP_BODY_BYTES = 1024 * 1024;

export const DEFAULT_HTTP_PORT = 8765;
