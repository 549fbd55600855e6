/**
 * pvfUtility's tag comments: one `Options/PvfComments/<ext>.json` per file type. The shape, the lookup
 * and the file types are facts learnt from KamishiroRei/pvfUtility (docs/editors.md names the files):
 * `{ SchemaVersion: 1, FileType, Comments: [{ PvfCommentType, FileType, Section, Title, Comment,
 * OfficialDescription, Closing, Authors }] }`; a hover on `[tag]` looks up the entry of the file's type
 * with `PvfCommentType` "Section" whose `Section` equals the tag case-insensitively (brackets and
 * backticks stripped). `Title` is plain text; `Comment` and `OfficialDescription` are Markdown.
 */
import { z } from 'zod';
import type { ExtensionKnowledge, TagKnowledge } from './tag-knowledge.js';
import { entryAuthors, entryMarkdown, entryTitle } from './entry-markdown.js';
import { parseBaseFile, type FormatOutput } from './format-output.js';

/**
 * File types pvfUtility is known to accept as `FileType`: it reads the field as its `PvfFileType` enum
 * (Newtonsoft StringEnumConverter), so an unknown name fails the whole file. These are the names of the
 * comment files it ships (Resources/OfflineDefaults/Options/PvfComments/*.json) and the enum members its
 * code names; other file types are left out of the export.
 */
export const PVFUTILITY_FILE_TYPES: ReadonlySet<string> = new Set([
  'act', 'ai', 'aic', 'als', 'ani', 'apd', 'atk', 'bin', 'blu', 'bm', 'chr', 'co', 'cre', 'dat', 'dgn', 'emo',
  'equ', 'etc', 'evt', 'exj', 'gdata', 'key', 'kor', 'lay', 'lst', 'map', 'mm', 'mob', 'npc', 'nut', 'obj',
  'ora', 'pet', 'pos', 'ptl', 'qst', 'rgn', 'sd', 'shp', 'skl', 'stk', 'stm', 'str', 'tbl', 'twn', 'txt',
  'ui', 'vm', 'wdm',
]);

/** The comment type of a `[tag]` hover (the other, "String", is for backtick strings). */
const SECTION = 'Section';

/** One comment as pvfUtility stores it; members pvfdoc does not write (Id, Create, …) are kept as read. */
export const PvfUtilityCommentSchema = z.looseObject({
  PvfCommentType: z.union([z.string(), z.number()]),
  FileType: z.string().nullish(),
  Section: z.string().nullish(),
  Title: z.string().nullish(),
  Comment: z.string().nullish(),
  OfficialDescription: z.string().nullish(),
  Closing: z.boolean().nullish(),
  Authors: z.string().nullish(),
});

export const PvfUtilityCommentFileSchema = z.looseObject({
  SchemaVersion: z.int(),
  FileType: z.string(),
  Comments: z.array(PvfUtilityCommentSchema),
});

type PvfUtilityComment = z.output<typeof PvfUtilityCommentSchema>;

/** pvfUtility's own key: brackets, a closing slash and backticks stripped, trimmed, compared ignoring case. */
function commentKey(section: string): string {
  return section.replaceAll('[/', '').replaceAll('[', '').replaceAll(']', '').replaceAll('`', '').trim().toLowerCase();
}

export function pvfUtilityFiles(extensions: readonly ExtensionKnowledge[], base: ReadonlyMap<string, string>): FormatOutput {
  const output: FormatOutput = { files: [], skipped: [] };
  for (const { ext, tags } of extensions) {
    if (!PVFUTILITY_FILE_TYPES.has(ext)) {
      output.skipped.push({ ext, tags: tags.length, reason: `pvfUtility has no file type "${ext}" (an unknown FileType makes it drop the whole file)` });
      continue;
    }
    const path = `${ext}.json`;
    const baseText = base.get(path);
    const ours = tags.map((tag) => commentOf(ext, tag));
    let comments: PvfUtilityComment[];
    let kept = 0;
    if (baseText === undefined) {
      comments = ours;
    } else {
      const baseFile = parseBaseFile(path, baseText, PvfUtilityCommentFileSchema, 'a pvfUtility comment file (Options/PvfComments/<ext>.json)');
      ({ comments, kept } = merge(baseFile.Comments, ours, tags));
    }
    const file = { SchemaVersion: 1, FileType: ext, Comments: comments };
    output.files.push({ path, ext, tags: tags.length, kept, text: `${JSON.stringify(file, null, 2)}\n` });
  }
  return output;
}

function commentOf(ext: string, tag: TagKnowledge): PvfUtilityComment {
  return {
    PvfCommentType: SECTION,
    FileType: ext,
    Section: tag.name,
    Title: entryTitle(tag),
    Comment: entryMarkdown(tag, 'markdig'),
    Closing: tag.closing === true,
    Authors: entryAuthors(tag),
  };
}

/**
 * The base file's comments with pvfdoc's text in the entries of the tags it knows (Title, Comment,
 * Authors), their own Closing kept when set and everything else as it was; tags it lacks are appended.
 */
function merge(baseComments: readonly PvfUtilityComment[], ours: readonly PvfUtilityComment[], tags: readonly TagKnowledge[]): { comments: PvfUtilityComment[]; kept: number } {
  const byKey = new Map(ours.map((c, i) => [tags[i]?.key ?? '', c]));
  const used = new Set<string>();
  let kept = 0;
  const comments = baseComments.map((comment) => {
    const key = commentKey(comment.Section ?? '');
    const mine = comment.PvfCommentType === SECTION ? byKey.get(key) : undefined;
    if (!mine || used.has(key)) {
      kept++;
      return comment;
    }
    used.add(key);
    return { ...comment, Title: mine.Title, Comment: mine.Comment, Authors: mine.Authors, Closing: comment.Closing === true || mine.Closing === true };
  });
  for (const [key, comment] of byKey) if (!used.has(key)) comments.push(comment);
  return { comments, kept };
}
