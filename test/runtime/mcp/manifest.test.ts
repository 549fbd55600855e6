/**
 * The public surface a model reads. The tool manifest (names, titles, descriptions, JSON schemas,
 * annotations) is pinned in test/golden/tool-manifest.json: any change shows up as a reviewed diff
 * (update with `npx vitest run test/mcp -u`). The skill resource must name exactly the error codes the
 * tool descriptions name.
 */
import { describe, expect, it } from 'vitest';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { openBuiltBundle } from '../../../runtime/bundle/load-bundle.js';
import { ERROR_CODES } from '../../../runtime/errors.js';
import { SKILL_URI } from '../../../runtime/mcp/constants.js';
import { listToolManifest } from '../../../runtime/mcp/tool-manifest.js';
import { compileLayers } from '../../../build/compile-layers.js';
import { BUILTIN_LAYER, connect } from './helpers.js';

/** Issue 14: the tool definitions an agent loads before its first call, in characters of JSON. */
const TOOLS_LIST_BUDGET = 20_000;

async function builtinFiles(): Promise<{ files: Parameters<typeof openBuiltBundle>[0] }> {
  const result = await compileLayers([BUILTIN_LAYER]);
  if (!result.ok) throw new Error('builtin layer does not compile');
  return { files: result.bundle.files };
}

function codesIn(text: string): string[] {
  return ERROR_CODES.filter((code) => new RegExp(`\\b${code}\\b`).test(text)).sort();
}

describe('tool manifest', () => {
  it('matches the golden manifest', async () => {
    const manifest = await listToolManifest();
    await expect(`${JSON.stringify(manifest, null, 2)}\n`).toMatchFileSnapshot('../../golden/tool-manifest.json');
  });

  it('keeps tools/list within 20 000 characters (what every agent loads before its first call, issue 14)', async () => {
    const conn = await connect({ rules: createRulesHolder(openBuiltBundle((await builtinFiles()).files)), workspaces: new Map() });
    try {
      const { tools } = await conn.client.listTools();
      expect(JSON.stringify(tools).length).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
    } finally {
      await conn.close();
    }
  });

  // The SDK checks every result against the published schema, so the other tests' calls prove it is looser than the full one.
  it('publishes compact output schemas and points at the skill resource for what to do on errors', async () => {
    for (const tool of await listToolManifest()) {
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toMatch(/"description"/);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      if (!tool.description.includes('Errors: none expected')) expect(tool.description, tool.name).toContain(SKILL_URI);
    }
  });

  it('describes every tool argument and states the errors of every tool', async () => {
    for (const tool of await listToolManifest()) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(properties)) expect(schema.description, `${tool.name}.${name}`).toBeTruthy();
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.description).toMatch(/\n\nErrors/);
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
    }
  });
});

describe('skill resource', () => {
  it('is listed and readable as Markdown with name and description front matter', async () => {
    const result = await compileLayers([BUILTIN_LAYER]);
    if (!result.ok) throw new Error('builtin layer does not compile');
    const conn = await connect({ rules: createRulesHolder(openBuiltBundle(result.bundle.files)), workspaces: new Map() });
    try {
      const { resources } = await conn.client.listResources();
      expect(resources).toContainEqual(expect.objectContaining({ uri: SKILL_URI, mimeType: 'text/markdown' }));
      const read = await conn.client.readResource({ uri: SKILL_URI });
      const content = read.contents[0];
      const text = content && 'text' in content ? content.text : '';
      expect(text).toMatch(/^---\nname: pvf-annotations\ndescription: .+\n---\n/);
      expect(text).toMatch(/workspace_info[\s\S]*pvf_annotation_search[\s\S]*pvf_annotation_get[\s\S]*pvf_annotation_explain[\s\S]*read_file/);
    } finally {
      await conn.close();
    }
  });

  it('names exactly the error codes the tool descriptions name', async () => {
    const result = await compileLayers([BUILTIN_LAYER]);
    if (!result.ok) throw new Error('builtin layer does not compile');
    const conn = await connect({ rules: createRulesHolder(openBuiltBundle(result.bundle.files)), workspaces: new Map() });
    try {
      const { tools } = await conn.client.listTools();
      const described = codesIn(tools.map((t) => t.description ?? '').join('\n'));
      const read = await conn.client.readResource({ uri: SKILL_URI });
      const content = read.contents[0];
      const skill = content && 'text' in content ? content.text : '';
      expect(codesIn(skill)).toEqual(described);
      expect(described).toEqual(
        expect.arrayContaining(['NO_ARCHIVE', 'INVALID_VERSION', 'STALE_RULES', 'INVALID_CURSOR', 'STALE_WORKSPACE', 'WORKSPACE_NOT_FOUND', 'FILE_NOT_FOUND', 'NOT_A_SCRIPT', 'DOCUMENT_NOT_FOUND', 'RESPONSE_TOO_LARGE', 'INVALID_ARGUMENT']),
      );
    } finally {
      await conn.close();
    }
  });
});
