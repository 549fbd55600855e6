/**
 * The pvf-parser-ts VS Code extension's tag files: `scriptTags/<ext>.json`, read from the extension's
 * `dist/scriptLang/scriptTags/` (then `src/…`), shape `{ tags: [{ name, description?, closing? }] }`.
 * Facts from lostluna1/pvf-parser-ts and its fork Lancarus/pvf-parser-ts (docs/editors.md names the
 * files): a hover on `[tag]` finds the entry whose `name` equals the tag ignoring case and shows
 * `description` as Markdown; completion offers every `name` (a closing pair when `closing`); a tag not
 * in the file, or a `[/tag]` of a tag without `closing`, is flagged as a warning. The fork also shows
 * `authors`.
 */
import { z } from 'zod';
import type { ExtensionKnowledge, TagKnowledge } from './tag-knowledge.js';
import { entryAuthors, entryMarkdown, entryTitle, escapeText } from './entry-markdown.js';
import { parseBaseFile, type FormatOutput } from './format-output.js';

/** One tag as the extension reads it; members pvfdoc does not write are kept as read. */
export const ScriptTagSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  closing: z.boolean().optional(),
  authors: z.string().optional(),
});

export const ScriptTagsFileSchema = z.looseObject({ tags: z.array(ScriptTagSchema) });

type ScriptTag = z.output<typeof ScriptTagSchema>;

export function vscodeScriptTagsFiles(extensions: readonly ExtensionKnowledge[], base: ReadonlyMap<string, string>): FormatOutput {
  const output: FormatOutput = { files: [], skipped: [] };
  for (const { ext, tags } of extensions) {
    const path = `${ext}.json`;
    const baseText = base.get(path);
    let list: ScriptTag[] = tags.map(tagOf);
    let kept = 0;
    if (baseText !== undefined) {
      const baseFile = parseBaseFile(path, baseText, ScriptTagsFileSchema, 'a pvf-parser-ts tag file (scriptTags/<ext>.json)');
      ({ tags: list, kept } = merge(baseFile.tags, list, tags));
    }
    output.files.push({ path, ext, tags: tags.length, kept, text: `${JSON.stringify({ tags: list }, null, 2)}\n` });
  }
  return output;
}

/**
 * The description: the title on the first line (the extension bolds it), then the entry. `closing` is
 * written only when the rules show the tag has a closing tag; the extension reads a missing one as no.
 */
function tagOf(tag: TagKnowledge): ScriptTag {
  const body = entryMarkdown(tag, 'vscode');
  const description = body === '' ? escapeText(entryTitle(tag), 'vscode') : `${escapeText(entryTitle(tag), 'vscode')}\n\n${body}`;
  return { name: tag.name, description, ...(tag.closing ? { closing: true } : {}), authors: entryAuthors(tag) };
}

/**
 * The base file's tags with pvfdoc's description and authors for the tags it knows; the base keeps its
 * spelling of the name, its `closing` and anything else. Tags only pvfdoc knows are appended.
 */
function merge(baseTags: readonly ScriptTag[], ours: readonly ScriptTag[], tags: readonly TagKnowledge[]): { tags: ScriptTag[]; kept: number } {
  const byKey = new Map(ours.map((t, i) => [tags[i]?.key ?? '', t]));
  const used = new Set<string>();
  let kept = 0;
  const merged = baseTags.map((tag) => {
    const key = tag.name.trim().toLowerCase();
    const mine = byKey.get(key);
    if (!mine || used.has(key)) {
      kept++;
      return tag;
    }
    used.add(key);
    const closing = tag.closing ?? mine.closing;
    return { ...tag, description: mine.description, authors: mine.authors, ...(closing !== undefined ? { closing } : {}) };
  });
  for (const [key, tag] of byKey) if (!used.has(key)) merged.push(tag);
  return { tags: merged, kept };
}
