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

/**
 * HTTP limits for a local tool: enough for several agents and a browser, few enough that idle or slow
 * connections cannot use up the process's file descriptors (often 1 024).
 */
export const HTTP_LIMITS = {
  /** Open connections at once; more are closed as they arrive. */
  maxConnections: 128,
  /** Time to receive all request headers. */
  headersTimeoutMs: 10_000,
  /** Time to receive the whole request, body included. */
  requestTimeoutMs: 30_000,
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
} as const;

export type HttpLimits = { -readonly [K in keyof typeof HTTP_LIMITS]: number };

/** Sent with every answer: nothing may frame these pages, sniff types or load from elsewhere. */
export const SITE_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

/** The MCP endpoint answers JSON only: it allows nothing at all to load. */
export const MCP_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;
