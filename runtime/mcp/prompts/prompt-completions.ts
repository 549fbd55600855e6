/**
 * Argument completion of the prompts (completion/complete): workspace ids, archive paths of a
 * workspace, the file types and section names the active rules know, and the client versions.
 * Suggestions never fail: an argument that cannot be completed yet (no workspace chosen, a folder that
 * does not exist) gets none, and prompts/get says what is wrong once the prompt is asked for.
 */
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import type { z } from 'zod';
import type { Bundle } from '../../bundle/load-bundle.js';
import { isPvfdocError } from '../../errors.js';
import { extensionOf } from '../../script/archive-path.js';
import { normalizeSection } from '../../search/search-documents.js';
import type { ServerContext } from '../server-context.js';

/** The protocol lets a completion carry at most 100 values. */
const MAX_COMPLETIONS = 100;

type Arguments = Record<string, string> | undefined;

function startingWith(values: Iterable<string>, typed: string): string[] {
  const prefix = typed.toLowerCase();
  const found: string[] = [];
  for (const value of values) {
    if (value.toLowerCase().startsWith(prefix)) found.push(value);
    if (found.length === MAX_COMPLETIONS) break;
  }
  return found;
}

export function completeWorkspaceIds(ctx: ServerContext, typed: string): string[] {
  return startingWith([...ctx.workspaces.keys()].sort(), typed);
}

/**
 * Entries of the folder the typed path is in, whose name starts with what follows its last "/";
 * folders end with "/" so the next completion goes inside them.
 */
export async function completeFilePath(ctx: ServerContext, typed: string, args: Arguments): Promise<string[]> {
  const only = ctx.workspaces.size === 1 ? [...ctx.workspaces.values()][0] : undefined;
  const workspace = (args?.workspaceId !== undefined ? ctx.workspaces.get(args.workspaceId) : undefined) ?? only;
  if (workspace === undefined) return [];
  const slash = typed.lastIndexOf('/');
  const folder = slash < 0 ? '' : typed.slice(0, slash);
  try {
    const entries = (await workspace.view()).listDirectory(folder);
    const byPath = entries.map((e) => (e.kind === 'directory' ? `${e.path}/` : e.path));
    return startingWith(byPath, typed);
  } catch (error) {
    if (isPvfdocError(error)) return [];
    throw error;
  }
}

/** File types (".equ") the rules name, in order; a document without any applies to every type. */
export function knownExtensions(bundle: Bundle): string[] {
  const found = new Set<string>();
  for (const doc of bundle.documents) for (const e of doc.match.extensions) found.add(e.toLowerCase());
  return [...found].sort();
}

/** "equ", ".EQU" and " .equ " all name the file type ".equ". */
export function normalizeExtension(ext: string): string {
  const trimmed = ext.trim().toLowerCase();
  return trimmed.startsWith('.') ? trimmed : `.${trimmed}`;
}

export function completeExtensions(bundle: Bundle, typed: string): string[] {
  const known = knownExtensions(bundle);
  return typed.trim() === '' ? known.slice(0, MAX_COMPLETIONS) : startingWith(known, normalizeExtension(typed));
}

/**
 * Section names of the definitions that apply to files of `ext` (every definition when it is not
 * given), as first written, in the order of their folded names.
 */
export function sectionNamesFor(bundle: Bundle, ext: string | undefined): string[] {
  const type = ext === undefined || ext.trim() === '' ? null : normalizeExtension(ext);
  const names = new Map<string, string>();
  for (const doc of bundle.documents) {
    if (doc.section === null || doc.section.trim() === '') continue;
    if (type !== null && doc.match.extensions.length > 0 && !doc.match.extensions.some((e) => e.toLowerCase() === type)) continue;
    const key = normalizeSection(doc.section);
    if (!names.has(key)) names.set(key, doc.section.trim());
  }
  return [...names].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, name]) => name);
}

export function completeSections(bundle: Bundle, typed: string, ext: string | undefined): string[] {
  const prefix = normalizeSection(typed);
  return sectionNamesFor(bundle, ext)
    .filter((name) => normalizeSection(name).startsWith(prefix))
    .slice(0, MAX_COMPLETIONS);
}

export function completeVersions(bundle: Bundle, typed: string): string[] {
  return startingWith([...bundle.manifest.pvfVersions, 'all'], typed);
}

/** The file type of an archive path, for completing the sections of the file being explained. */
export function extensionOfPath(filePath: string | undefined): string | undefined {
  if (filePath === undefined) return undefined;
  const ext = extensionOf(filePath);
  return ext === '' ? undefined : ext;
}

/**
 * An optional completable argument. The SDK finds the completer on the optional schema when it
 * completes, but looks inside it when it decides whether to offer completions at all: mark both.
 */
export function optionalCompletable(
  schema: z.ZodString,
  description: string,
  complete: (typed: string, context?: { arguments?: Record<string, string> }) => string[] | Promise<string[]>,
) {
  const inner = completable(schema, complete);
  return completable(inner.optional().describe(description), (typed, context) => complete(typed ?? '', context));
}

