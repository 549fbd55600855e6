/**
 * What both views do with the host: connect through the MCP Apps `App` class (postMessage JSON-RPC to
 * the host window), follow the host's theme and style variables, and call server tools through the
 * host. Light/dark comes from the host context (`theme`, `styles.variables`); without one the CSS
 * follows `prefers-color-scheme`. Host fonts are never applied: their CSS may fetch font files, and the
 * views load nothing from the network.
 */
import { App, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext, type McpUiStyles } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface ToolAnswer<T> {
  ok: boolean;
  /** structuredContent of a successful result. */
  value: T | null;
  /** The result's text (for an error: `CODE: message hint`). */
  text: string;
}

export function textOfResult(result: Pick<CallToolResult, 'content'>): string {
  return (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** A tool result as the views use it: the structured content, or the error text. */
export function answerOf<T>(result: Pick<CallToolResult, 'content' | 'structuredContent' | 'isError'>): ToolAnswer<T> {
  const text = textOfResult(result);
  if (result.isError || result.structuredContent === undefined) return { ok: false, value: null, text: text || 'no structured result' };
  return { ok: true, value: result.structuredContent as T, text };
}

/** Host style variables, except any that would load something (`url(…)`, `@import`). */
function offlineVariables(variables: McpUiStyles): McpUiStyles {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    if (typeof value === 'string' && !/url\s*\(|@import/i.test(value)) kept[name] = value;
  }
  return kept as McpUiStyles;
}

function applyHostContext(context: McpUiHostContext | undefined): void {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(offlineVariables(context.styles.variables));
}

export interface ViewHandlers {
  /** The arguments the model called the tool with (needed to page with nextCursor). */
  onInput(args: Record<string, unknown>): void;
  onResult(result: CallToolResult): void;
}

/**
 * Connects to the host. Handlers are registered before connecting, as the App class asks, so no
 * notification is missed.
 */
export async function connectView(name: string, handlers: ViewHandlers): Promise<App> {
  const app = new App({ name: `pvfdoc-${name}`, version: '1' }, {}, { autoResize: true });
  app.ontoolinput = (params) => handlers.onInput(params.arguments ?? {});
  app.ontoolresult = (params) => handlers.onResult(params as CallToolResult);
  app.onhostcontextchanged = (context) => applyHostContext(context);
  await app.connect();
  applyHostContext(app.getHostContext());
  return app;
}

/** What a view does with what the host sends. */
export interface ToolView {
  setInput(args: Record<string, unknown>): void;
  showResult(result: CallToolResult): unknown;
}

/**
 * Connects, builds the view with `make` and hands it what the host sent meanwhile (it may send the
 * input and the result right after the handshake, before the view exists); a failure is shown in
 * place of the view.
 */
export function startView(name: string, make: (app: App, locale: string | undefined, root: HTMLElement) => ToolView): void {
  const root = document.getElementById('root') as HTMLElement;
  const run = async (): Promise<void> => {
    let view: ToolView | null = null;
    const pending: { input?: Record<string, unknown>; result?: CallToolResult } = {};
    const app = await connectView(name, {
      onInput: (args) => {
        pending.input = args;
        view?.setInput(args);
      },
      onResult: (r) => {
        pending.result = r;
        if (view) void view.showResult(r);
      },
    });
    view = make(app, app.getHostContext()?.locale, root);
    if (pending.input) view.setInput(pending.input);
    if (pending.result) await view.showResult(pending.result);
  };
  run().catch((error: unknown) => {
    root?.replaceChildren(document.createTextNode(`pvfdoc: ${error instanceof Error ? error.message : String(error)}`));
  });
}

/** Calls a tool of the pvfdoc server through the host. A refused call comes back as an error answer. */
export async function callTool<T>(app: App, name: string, args: Record<string, unknown>): Promise<ToolAnswer<T>> {
  try {
    return answerOf<T>(await app.callServerTool({ name, arguments: args }));
  } catch (error) {
    return { ok: false, value: null, text: error instanceof Error ? error.message : String(error) };
  }
}

/** Tells the model what the user is looking at, when the host accepts context updates. */
export async function tellModel(app: App, text: string, structured: Record<string, unknown>): Promise<boolean> {
  const accepts = app.getHostCapabilities()?.updateModelContext;
  if (!accepts) return false;
  try {
    await app.updateModelContext({ content: [{ type: 'text', text }], ...(accepts.structuredContent ? { structuredContent: structured } : {}) });
    return true;
  } catch {
    // The host may refuse a context update; the view works the same without it.
    return false;
  }
}
