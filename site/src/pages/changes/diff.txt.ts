/**
 * The changes as `pvfdoc diff` prints them (plain text, English), for those who want the terminal form;
 * the changes page shows the same diff in words.
 */
import type { APIRoute } from 'astro';
import { changesData } from '../../lib/site-data.js';

export const GET: APIRoute = async () => {
  const data = await changesData();
  const text =
    data.status === 'diff'
      ? data.text === ''
        ? `no changes between ${data.diff.old.rulesRevision} and ${data.diff.new.rulesRevision}\n`
        : data.text
      : `no diff: ${data.reason}\n`;
  return new Response(text, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
