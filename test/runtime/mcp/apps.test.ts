/**
 * The MCP Apps surface (docs/mcp.md, MCP Apps views) without a browser: explain and search name their
 * views in `_meta.ui.resourceUri`, both views are listed and readable as `text/html;profile=mcp-app`
 * from the sources and from the bundled dist/pvfdoc.mjs (whose copy is inlined), the HTML references
 * nothing on the network, and the browser code imports no Node module and never parses data as HTML.
 * The browser behaviour itself is in apps-views.test.ts.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPLAIN_VIEW_URI, SEARCH_VIEW_URI } from '../../../runtime/mcp/apps/view-resources.js';
import { cutLines } from '../../../runtime/mcp/apps/views/explain-lines.js';
import { connectExampleServer, type ExampleServer } from './apps-host.js';
import { ROOT, tempDir } from './helpers.js';

const VIEWS_SRC = path.join(ROOT, 'runtime/mcp/apps/views');
const BUILT = path.join(ROOT, 'dist/mcp-apps');
const VIEWS = [
  { tool: 'pvf_annotation_explain', uri: EXPLAIN_VIEW_URI, file: 'explain-view.html' },
  { tool: 'pvf_annotation_search', uri: SEARCH_VIEW_URI, file: 'search-view.html' },
];

let server: ExampleServer;

beforeAll(async () => {
  server = await connectExampleServer();
});

afterAll(async () => {
  await (server as ExampleServer | undefined)?.close();
});

/** Every way the HTML could load something: in its markup, its inline style and its inline script. */
function networkReferences(html: string): string[] {
  const inner = (tag: string) => [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'gi'))].map((m) => m[1] ?? '');
  const markup = html.replace(/(<(script|style)\b[^>]*>)[\s\S]*?(<\/\2>)/gi, '$1$3');
  const checks: [string[], RegExp[]][] = [
    [
      [markup],
      [
        /\b(?:src|href|action|poster|data|srcset|background)\s*=\s*["']?\s*(?!data:)(?:[a-z][a-z0-9+.-]*:|\/\/)/gi,
        /<(?:link|img|iframe|frame|object|embed|audio|video|source|track|base|form)\b/gi,
        /<script\b[^>]*\bsrc\s*=/gi,
      ],
    ],
    [inner('style'), [/@import\b/gi, /url\(\s*["']?\s*(?!data:)/gi]],
    [
      inner('script'),
      [
        /\bfetch\s*\(/g,
        /\bnew\s+(?:XMLHttpRequest|WebSocket|EventSource|Worker|SharedWorker|Image|Audio)\b/g,
        /\bsendBeacon\s*\(/g,
        /\bimport\s*\(/g,
        /\bimportScripts\s*\(/g,
        /\.(?:src|href|srcset)\s*=[^=]/g,
        /\bsetAttribute\s*\(\s*["'](?:src|href)["']/g,
      ],
    ],
  ];
  return checks.flatMap(([texts, patterns]) => texts.flatMap((text) => patterns.flatMap((p) => [...text.matchAll(p)].map((m) => text.slice(Math.max(0, m.index - 40), m.index + 60)))));
}

describe('tools name their views', () => {
  it('explain and search carry _meta.ui.resourceUri (and the flat key of earlier hosts); the others none', () => {
    for (const view of VIEWS) {
      const meta = server.tool(view.tool)._meta;
      expect(meta?.ui, view.tool).toEqual({ resourceUri: view.uri });
      expect(meta?.[RESOURCE_URI_META_KEY], view.tool).toBe(view.uri);
    }
    for (const tool of server.tools.filter((t) => !VIEWS.some((v) => v.tool === t.name))) expect(tool._meta?.ui, tool.name).toBeUndefined();
  });

  it('lists both views as text/html;profile=mcp-app asking for no network origin', async () => {
    expect(RESOURCE_MIME_TYPE).toBe('text/html;profile=mcp-app');
    const { resources } = await server.client.listResources();
    for (const view of VIEWS) {
      const listed = resources.find((r) => r.uri === view.uri);
      expect(listed?.mimeType, view.uri).toBe('text/html;profile=mcp-app');
      expect(listed?._meta?.ui).toEqual({ csp: { connectDomains: [], resourceDomains: [], frameDomains: [] }, prefersBorder: true });
    }
  });

  it('reads each view as one self-contained HTML document, the one the build wrote', async () => {
    for (const view of VIEWS) {
      const read = await server.client.readResource({ uri: view.uri });
      expect(read.contents).toHaveLength(1);
      const content = read.contents[0] as { uri: string; mimeType: string; text: string; _meta?: Record<string, unknown> };
      expect(content.uri).toBe(view.uri);
      expect(content.mimeType).toBe('text/html;profile=mcp-app');
      expect(content._meta?.ui).toMatchObject({ csp: { connectDomains: [], resourceDomains: [] } });
      expect(content.text).toBe(await readFile(path.join(BUILT, view.file), 'utf8'));
      expect(content.text.startsWith('<!doctype html>\n')).toBe(true);
      expect(content.text.match(/<script\b/g)).toHaveLength(1);
      expect(content.text.match(/<style\b/g)).toHaveLength(1);
      expect(content.text).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; [^"]*">/);
    }
  });
});

describe('the views load nothing from the network', () => {
  it('references no URL to load, and calls no fetch, XHR, WebSocket or dynamic import', async () => {
    for (const view of VIEWS) {
      const html = await readFile(path.join(BUILT, view.file), 'utf8');
      expect(networkReferences(html), view.file).toEqual([]);
    }
  });

  it('the check finds each kind of network reference (so it can fail)', () => {
    const probes = [
      '<script src="https://cdn.example/x.js"></script>',
      '<img src="//example.org/a.png">',
      '<a href="https://example.org/">x</a>',
      '<script>document.body.append(new Image())</script>',
      '<script>el.src = "https://example.org/a.png"</script>',
      '<script>new EventSource("/events")</script>',
      '<link href="http://example.org/a.css" rel="stylesheet">',
      '<style>@import "a.css";</style>',
      '<style>body { background: url(https://example.org/b.png) }</style>',
      '<script>fetch("https://example.org/")</script>',
      '<script>new XMLHttpRequest()</script>',
      '<script>new WebSocket("wss://example.org")</script>',
      '<script>import("https://example.org/m.js")</script>',
    ];
    for (const probe of probes) expect(networkReferences(probe), probe).not.toEqual([]);
  });
});

describe('dist/pvfdoc.mjs carries the views', () => {
  it('serves the same HTML over stdio from the single bundled file', async () => {
    const tmp = await tempDir('mcp-apps-dist');
    const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, 'dist/pvfdoc.mjs'), 'serve', '--workspace', `example=${path.join(ROOT, 'examples/workspace')}`], cwd: tmp.dir, stderr: 'pipe' });
    const client = new Client({ name: 'pvfdoc-apps-dist', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      for (const view of VIEWS) {
        expect(tools.find((t) => t.name === view.tool)?._meta?.ui).toEqual({ resourceUri: view.uri });
        const read = await client.readResource({ uri: view.uri });
        expect((read.contents[0] as { text: string }).text).toBe(await readFile(path.join(BUILT, view.file), 'utf8'));
      }
    } finally {
      await client.close();
      await tmp.cleanup();
    }
  });
});

describe('the browser code', () => {
  async function sources(): Promise<{ file: string; text: string }[]> {
    const names = (await readdir(VIEWS_SRC)).filter((n) => n.endsWith('.ts'));
    return Promise.all(names.map(async (file) => ({ file, text: await readFile(path.join(VIEWS_SRC, file), 'utf8') })));
  }

  it('imports only its own folder and @modelcontextprotocol/ext-apps; anything else only as types', async () => {
    const offenders: string[] = [];
    for (const { file, text } of await sources()) {
      for (const match of text.matchAll(/^import\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
        const [, typeOnly, specifier] = match as unknown as [string, string | undefined, string];
        const ownFolder = specifier.startsWith('./');
        if (specifier.startsWith('node:') || (!typeOnly && !ownFolder && specifier !== '@modelcontextprotocol/ext-apps')) offenders.push(`${file}: ${match[0]}`);
      }
      if (/\brequire\s*\(|\bimport\s*\(/.test(text)) offenders.push(`${file}: require or dynamic import`);
    }
    expect(offenders).toEqual([]);
  });

  it('never turns data into HTML', async () => {
    for (const { file, text } of await sources()) expect(text, file).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment|\beval\s*\(|new Function/);
  });

  it('type-checks with the DOM library and without Node types', async () => {
    await expect(promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', path.join(VIEWS_SRC, 'tsconfig.json')], { cwd: ROOT })).resolves.toBeDefined();
  }, 120_000);
});

describe('cutLines', () => {
  const window = (text: string, startOffset = 0, startLine = 1) => ({ text, startOffset, startLine, endLine: startLine + text.split('\n').length - 1 });

  it('marks each piece with the innermost range covering it', () => {
    const { lines, shown } = cutLines(window('[a]\n\t12 34\n'), [
      { start: 4, end: 10 },
      { start: 5, end: 7 },
    ]);
    expect(lines.map((l) => l.number)).toEqual([1, 2, 3]);
    expect(lines[1]?.segments).toEqual([
      { text: '\t', annotation: 0 },
      { text: '12', annotation: 1 },
      { text: ' 34', annotation: 0 },
    ]);
    expect(lines[2]?.segments).toEqual([]);
    expect([...shown].sort()).toEqual([0, 1]);
  });

  it('splits a range over the lines it spans, without the line ends', () => {
    const { lines } = cutLines(window('x `ab\ncd` y'), [{ start: 2, end: 9 }]);
    expect(lines.map((l) => l.segments)).toEqual([
      [
        { text: 'x ', annotation: null },
        { text: '`ab', annotation: 0 },
      ],
      [
        { text: 'cd`', annotation: 0 },
        { text: ' y', annotation: null },
      ],
    ]);
  });

  it('maps ranges of the whole file into a partial read, and leaves out what lies outside it', () => {
    // Lines 3–4 of a file whose line 3 starts at offset 10.
    const { lines, shown } = cutLines({ text: 'abc\ndef\n', startOffset: 10, startLine: 3, endLine: 4 }, [
      { start: 11, end: 12 },
      { start: 0, end: 5 },
      { start: 14, end: 14 },
      { start: 30, end: 31 },
    ]);
    expect(lines.map((l) => l.number)).toEqual([3, 4]);
    expect(lines[0]?.segments).toEqual([
      { text: 'a', annotation: null },
      { text: 'b', annotation: 0 },
      { text: 'c', annotation: null },
    ]);
    expect([...shown]).toEqual([0]);
  });
});
