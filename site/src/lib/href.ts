/** Links inside the site, under the base it is built for (`pvfdoc site --base`, default "/"). */
const raw = (import.meta as unknown as { env?: { BASE_URL?: string } }).env?.BASE_URL ?? '/';

export const BASE = raw.endsWith('/') ? raw : `${raw}/`;

export function href(path: string): string {
  return `${BASE}${path}`;
}
