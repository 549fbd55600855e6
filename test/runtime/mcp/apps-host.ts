/**
 * A minimal MCP Apps host for the views' browser tests and screenshots (scripts/mcp-app-screenshots.ts).
 *
 * The host side of the protocol is the package's own AppBridge, run here in Node; the browser page
 * only holds the view in a sandboxed iframe (srcdoc, opaque origin, as hosts embed views) and relays
 * postMessage traffic between the iframe and the bridge. The bridge hands the view a real tool result
 * and forwards the view's tool calls to the real pvfdoc server through an SDK Client, recording each
 * call and every model-context update.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { compileLayers } from '../../../build/compile-layers.js';
import { openBuiltBundle } from '../../../runtime/bundle/load-bundle.js';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { createServer } from '../../../runtime/mcp/create-server.js';
import { silentLogger } from '../../../runtime/mcp/log.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const EXAMPLE_WORKSPACE_ID = 'example';
/** The gauntlet of examples/workspace: enums, references, paths, images and multi-line strings. */
export const EXAMPLE_EQU = 'equipment/character/fighter/weapon/102010612.equ';

export interface ExampleServer {
  client: Client;
  tools: Tool[];
  /** The workspace revision, for explain's expectedRevision. */
  revision: number;
  tool(name: string): Tool;
  /** The HTML of the view a tool names in `_meta.ui.resourceUri`, read with resources/read. */
  viewOf(toolName: string): Promise<string>;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The real server from the sources (builtin rules, examples/workspace) and an SDK Client on it, in memory. */
export async function connectExampleServer(): Promise<ExampleServer> {
  const compiled = await compileLayers([path.join(ROOT, 'rules/builtin')]);
  if (!compiled.ok) throw new Error('the builtin layer does not compile');
  const workspace = await openDirectoryWorkspace({ workspaceId: EXAMPLE_WORKSPACE_ID, name: EXAMPLE_WORKSPACE_ID, root: path.join(ROOT, 'examples/workspace') });
  const created = createServer({ rules: createRulesHolder(openBuiltBundle(compiled.bundle.files)), workspaces: new Map([[EXAMPLE_WORKSPACE_ID, workspace]]), log: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'pvfdoc-apps-test', version: '1.0.0' });
  await created.server.connect(serverSide);
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  const tool = (name: string): Tool => {
    const found = tools.find((t) => t.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };
  return {
    client,
    tools,
    revision: workspace.info().revision,
    tool,
    async viewOf(toolName) {
      const uri = (tool(toolName)._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
      if (!uri) throw new Error(`${toolName} names no view`);
      const read = await client.readResource({ uri });
      const content = read.contents[0];
      if (!content || !('text' in content)) throw new Error(`${uri} has no text`);
      return content.text;
    },
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await created.close();
    },
  };
}

/** The page around the view. Its script only relays messages; the iframe may run scripts and nothing else. */
const HOST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>pvfdoc test host</title>
<style>html, body { margin: 0; background: #808080; } iframe { display: block; width: 100%; height: 200px; border: 0; }</style>
</head><body>
<iframe id="view" sandbox="allow-scripts" title="MCP App view"></iframe>
<script>
const frame = document.getElementById('view');
window.addEventListener('message', (event) => {
  if (event.source === frame.contentWindow) window.pvfdocFromView(event.data);
});
window.pvfdocToView = (message) => frame.contentWindow.postMessage(message, '*');
window.pvfdocLoadView = (html) => { frame.srcdoc = html; };
window.pvfdocResize = (height) => { frame.style.height = height + 'px'; };
</script>
</body></html>`;

/** What the host page's script defines (page functions are sent to the page as text, so each casts inline). */
interface HostWindow {
  pvfdocToView(message: unknown): void;
  pvfdocLoadView(html: string): void;
  pvfdocResize(height: number): void;
}

/** The bridge's transport: messages to the view go through the page, messages from it arrive via an exposed function. */
class PageTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(private readonly page: Page) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    await this.page.evaluate((m) => (globalThis as unknown as HostWindow).pvfdocToView(m), message as unknown as Record<string, unknown>);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  receive(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

export interface ToolCallRecord {
  name: string;
  arguments: Record<string, unknown>;
  isError: boolean;
}

export interface ModelContextRecord {
  text: string;
  structuredContent: Record<string, unknown> | undefined;
}

export interface OpenedView {
  /** The view's frame, once its document is loaded. */
  frame(): ReturnType<Page['frames']>[number];
  /** Every tool call the view made through the host, in order. */
  toolCalls: ToolCallRecord[];
  /** Every ui/update-model-context the view sent. */
  modelContext: ModelContextRecord[];
  close(): Promise<void>;
}

export interface OpenViewOptions {
  client: Client;
  /** The tool as tools/list lists it (the host passes it to the view as toolInfo). */
  tool: Tool;
  html: string;
  toolArguments: Record<string, unknown>;
  toolResult: CallToolResult;
  theme?: 'light' | 'dark';
  /** Host style variables (McpUiStyles); none: the view's own colours. */
  styleVariables?: Record<string, string>;
  locale?: string;
}

/**
 * Loads the host page, connects an AppBridge and the view, and delivers the tool input and result as
 * a host does after the view's `ui/notifications/initialized`.
 */
export async function openView(page: Page, options: OpenViewOptions): Promise<OpenedView> {
  const transport = new PageTransport(page);
  await page.exposeFunction('pvfdocFromView', (message: JSONRPCMessage) => transport.receive(message));
  await page.setContent(HOST_PAGE);
  const toolCalls: ToolCallRecord[] = [];
  const modelContext: ModelContextRecord[] = [];
  const hostContext = {
    toolInfo: { tool: options.tool },
    displayMode: 'inline' as const,
    locale: options.locale ?? 'zh-CN',
    platform: 'web' as const,
    ...(options.theme ? { theme: options.theme } : {}),
    ...(options.styleVariables ? { styles: { variables: options.styleVariables } } : {}),
  };
  const bridge = new AppBridge(
    null,
    { name: 'pvfdoc-test-host', version: '1.0.0' },
    { serverTools: {}, updateModelContext: { text: {}, structuredContent: {} }, logging: {} },
    { hostContext },
  );
  bridge.oncalltool = async (params) => {
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const result = (await options.client.callTool({ name: params.name, arguments: args })) as CallToolResult;
    toolCalls.push({ name: params.name, arguments: args, isError: result.isError === true });
    return result;
  };
  bridge.onupdatemodelcontext = async (params) => {
    const text = (params.content ?? []).map((c: { type: string; text?: string }) => (c.type === 'text' ? (c.text ?? '') : '')).join('\n');
    modelContext.push({ text, structuredContent: params.structuredContent });
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) void page.evaluate((h) => (globalThis as unknown as HostWindow).pvfdocResize(h), Math.min(Math.ceil(height), 4000));
  };
  const delivered = new Promise<void>((resolve, reject) => {
    bridge.oninitialized = () => {
      bridge
        .sendToolInput({ arguments: options.toolArguments })
        .then(() => bridge.sendToolResult(options.toolResult))
        .then(resolve, reject);
    };
  });
  await bridge.connect(transport);
  await page.evaluate((html) => (globalThis as unknown as HostWindow).pvfdocLoadView(html), options.html);
  await delivered;
  return {
    frame() {
      const frame = page.frames().find((f) => f !== page.mainFrame());
      if (!frame) throw new Error('the view frame is not loaded');
      return frame;
    },
    toolCalls,
    modelContext,
    // Protocol.close(): the package's types reach it through an extensionless re-export that NodeNext
    // resolution (this tsconfig) does not follow.
    close: () => (bridge as unknown as { close(): Promise<void> }).close(),
  };
}
