import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { PvfdocError } from '../../errors.js';
import { MAX_READ_FILE_BYTES, READ_ONLY_ANNOTATIONS } from '../constants.js';
import { describeErrors } from '../error-guide.js';
import { findWorkspace, type ServerContext } from '../server-context.js';
import { toolResult, withToolErrors } from '../tool-result.js';
import { publishedOutputSchema } from '../published-schema.js';
import { readTextInSlices } from '../../workspace/run-in-slices.js';

const READ_FILE_TOOL = 'read_file';

const ReadFileInputSchema = z.strictObject({
  workspaceId: z.string().min(1).max(200).describe('from workspace_info'),
  filePath: z.string().min(1).max(1000).describe('archive-internal path of a file with "/" (from list_files); matched case-insensitively'),
  startLine: z.int().min(1).optional().describe('first line, 1-based, inclusive; default 1'),
  endLine: z.int().min(1).optional().describe('last line, 1-based, inclusive; default the last line'),
});

export const ReadFileOutputSchema = z.strictObject({
  workspaceId: z.string(),
  filePath: z.string().describe('the file as stored in the workspace (original case)'),
  text: z.string().describe('lines startLine..endLine of the canonical text (UTF-8, "\\n" line ends), each with its "\\n"; exactly the text pvf_annotation_explain positions refer to'),
  revision: z.int().describe('workspace revision that was read'),
  textRevision: z.string().describe('hash of the whole canonical text of the file; equals pvf_annotation_explain textRevision for the same content'),
  lineCount: z.int().describe('lines in the whole file (one more than its "\\n" count)'),
  startLine: z.int().describe('first line returned, 1-based'),
  endLine: z.int().describe('last line returned, 1-based, inclusive'),
  startOffset: z.int().describe('0-based UTF-16 offset of text[0] in the whole file: an explain range maps into text by subtracting it'),
  truncated: z.boolean().describe(`true when the answer stopped before the requested endLine to stay within ${MAX_READ_FILE_BYTES} bytes as sent; continue with startLine = endLine + 1`),
});

type ReadFileOutput = z.output<typeof ReadFileOutputSchema>;

const DESCRIPTION = [
  'Reads the text of one workspace file, whole or a line range.',
  'Call it to see the lines pvf_annotation_explain talks about, or any text file before changing it. workspaceId comes from workspace_info, filePath from list_files (or an explain reference path); startLine/endLine are 1-based and inclusive (e.g. the start.line/end.line of an explain annotation).',
  `text is the canonical text ("\\n" line ends) that explain ranges index (0-based UTF-16 offsets; subtract startOffset for a partial read). An answer stays within ${MAX_READ_FILE_BYTES} bytes as sent (the text counted JSON-escaped, in both structuredContent and content), cut at a line boundary: when truncated, continue with startLine = endLine + 1.`,
  describeErrors(['WORKSPACE_NOT_FOUND', 'NO_ARCHIVE', 'FILE_NOT_FOUND', 'INVALID_ARGUMENT', 'RESPONSE_TOO_LARGE', 'STALE_WORKSPACE', 'IO_ERROR', 'INVALID_ARCHIVE']),
].join('\n\n');

/** Made once, not per registration: Streamable HTTP registers every tool again for each request. */
const PUBLISHED_OUTPUT_SCHEMA = publishedOutputSchema(ReadFileOutputSchema);

export function registerReadFileTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    READ_FILE_TOOL,
    {
      title: 'Read a workspace file',
      description: DESCRIPTION,
      inputSchema: ReadFileInputSchema,
      outputSchema: PUBLISHED_OUTPUT_SCHEMA,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    withToolErrors(ctx.log, async (args) => {
      const view = await findWorkspace(ctx, args.workspaceId).view();
      const stored = view.resolveFile(args.filePath);
      if (stored === null) {
        throw new PvfdocError('FILE_NOT_FOUND', `no file "${args.filePath}" in workspace "${args.workspaceId}"`, {
          hint: 'Take the path from list_files: archive-internal, "/" separated, no leading "/".',
          data: { filePath: args.filePath },
        });
      }
      const file = await readTextInSlices(view, stored);
      const slice = sliceLines(file.text, args.startLine, args.endLine);
      const output: ReadFileOutput = {
        workspaceId: args.workspaceId,
        filePath: file.path,
        text: slice.text,
        revision: view.revision,
        textRevision: file.textRevision,
        lineCount: slice.lineCount,
        startLine: slice.startLine,
        endLine: slice.endLine,
        startOffset: slice.startOffset,
        truncated: slice.truncated,
      };
      const head = `${file.path} lines ${slice.startLine}–${slice.endLine} of ${slice.lineCount} (revision ${view.revision}, textRevision ${file.textRevision})${slice.truncated ? `; truncated at ${MAX_READ_FILE_BYTES} bytes, continue with startLine ${slice.endLine + 1}` : ''}`;
      return toolResult(output, `${head}\n${slice.text}`);
    }),
  );
}

type LineSlice = Pick<ReadFileOutput, 'text' | 'lineCount' | 'startLine' | 'endLine' | 'startOffset' | 'truncated'>;

/** Room left in the answer for everything but the text (file path, revisions, the heading line). */
const ANSWER_OVERHEAD_BYTES = 4096;

/**
 * What a line costs in the answer: the text is sent twice (structuredContent and the readable content)
 * and JSON-escaped (a control character becomes a 6-byte \u escape), so raw bytes undercount it.
 */
function sentBytes(line: string): number {
  return 2 * (Buffer.byteLength(JSON.stringify(line)) - 2);
}

/** Whole lines startLine..endLine of a `\n`-only text, each with its `\n`, within the answer budget. */
function sliceLines(text: string, startLine: number | undefined, endLine: number | undefined, maxBytes = MAX_READ_FILE_BYTES): LineSlice {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineCount = starts.length;
  const first = startLine ?? 1;
  if (first > lineCount) {
    throw new PvfdocError('INVALID_ARGUMENT', `startLine ${first} is past the end of the file, which has ${lineCount} lines`, {
      hint: `Use a startLine from 1 to ${lineCount}.`,
      data: { lineCount },
    });
  }
  if (endLine !== undefined && endLine < first) {
    throw new PvfdocError('INVALID_ARGUMENT', `endLine ${endLine} is before startLine ${first}`, { hint: 'Give endLine ≥ startLine, or omit it to read to the end.' });
  }
  const last = Math.min(endLine ?? lineCount, lineCount);
  const lineStart = (line: number): number => starts[line - 1] ?? text.length;
  let bytes = ANSWER_OVERHEAD_BYTES;
  let end = first - 1;
  for (let line = first; line <= last; line++) {
    const lineBytes = sentBytes(text.slice(lineStart(line), lineStart(line + 1)));
    if (bytes + lineBytes > maxBytes) {
      if (line === first) {
        throw new PvfdocError('RESPONSE_TOO_LARGE', `line ${line} alone would take ${lineBytes} bytes as sent, over the ${maxBytes}-byte read_file limit`, {
          hint: 'This line cannot be returned by read_file; use pvf_annotation_explain with startLine/endLine to get its annotations and values.',
          data: { line, bytes: lineBytes, limit: maxBytes },
        });
      }
      break;
    }
    bytes += lineBytes;
    end = line;
  }
  const startOffset = lineStart(first);
  return {
    text: text.slice(startOffset, lineStart(end + 1)),
    lineCount,
    startLine: first,
    endLine: end,
    startOffset,
    truncated: end < last,
  };
}
