/**
 * The MCP prompts of the server (prompts/list, prompts/get, and completion/complete for their
 * arguments). A prompt is a task the user picks in the client, filled by the server with what pvfdoc
 * already knows, so the model starts from real content instead of a first round of tool calls.
 * The argument schemas close over the context (their completions read its workspaces and rules), so
 * they are made per server, like the server itself.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from '../server-context.js';
import { explainFileArgs, fillExplainFilePrompt } from './explain-file-prompt.js';
import { EXPLAIN_FILE_PROMPT, TAG_MEANING_PROMPT } from './prompt-names.js';
import { withPromptErrors } from './prompt-error.js';
import { fillTagMeaningPrompt, tagMeaningArgs } from './tag-meaning-prompt.js';

export { EXPLAIN_FILE_PROMPT, TAG_MEANING_PROMPT } from './prompt-names.js';
export { PROMPT_BUDGET_BYTES } from './prompt-text.js';

export function registerPrompts(server: McpServer, ctx: ServerContext): void {
  server.registerPrompt(
    EXPLAIN_FILE_PROMPT,
    {
      title: '解释这个文件 / Explain this file',
      description:
        '解释工作区里的一个实际脚本文件：填入工作区信息、文件开头的原文、第一页标注（字段、取值、枚举标签、引用）和接着要调用的工具。/ Explain an actual script file of a workspace: fills in the workspace info, the first lines of the file, the first page of its explanation and the tool calls that continue it.',
      argsSchema: explainFileArgs(ctx),
    },
    withPromptErrors(ctx.log, (args) => fillExplainFilePrompt(ctx, args)),
  );
  server.registerPrompt(
    TAG_MEANING_PROMPT,
    {
      title: '这个标签是什么意思 / What does this tag mean',
      description:
        '一类文件中一个标签的含义：填入规则文档（标题、说明、取值、可信度和来源）；规则里没有时说明可以试什么。/ What a section tag means in a file type: fills in its rule documents (title, meaning, values, trust, sources), or what to try when none is known.',
      argsSchema: tagMeaningArgs(ctx),
    },
    withPromptErrors(ctx.log, (args) => fillTagMeaningPrompt(ctx, args)),
  );
}
