/**
 * The editor JSON Schemas of the rule files at /schemas/<name>.schema.json, so that an editor can
 * point at the site (docs/editor-schemas.md). They are the tracked files of schemas/ (written by
 * `npm run schemas`), served as they are: site/ may not import the generator in build/.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import annotations from '../../../../schemas/annotations.schema.json' with { type: 'json' };
import layer from '../../../../schemas/layer.schema.json' with { type: 'json' };
import lists from '../../../../schemas/lists.schema.json' with { type: 'json' };
import rendering from '../../../../schemas/rendering.schema.json' with { type: 'json' };

/** URL name (the file name without ".json") → schema. */
const SCHEMAS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['annotations.schema', annotations],
  ['lists.schema', lists],
  ['rendering.schema', rendering],
  ['layer.schema', layer],
]);

export const getStaticPaths = (() => [...SCHEMAS.keys()].map((name) => ({ params: { name } }))) satisfies GetStaticPaths;

/** The same text as the tracked file: two-space JSON and a final newline. */
export const GET: APIRoute = ({ params }) => {
  const schema = SCHEMAS.get(params.name ?? '');
  if (schema === undefined) return new Response('no such schema\n', { status: 404 });
  return new Response(`${JSON.stringify(schema, null, 2)}\n`, { headers: { 'Content-Type': 'application/schema+json; charset=utf-8' } });
};
