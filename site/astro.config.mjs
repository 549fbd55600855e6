// Astro configuration of the reference site. `pvfdoc site` (site/build-site.ts) builds it
// programmatically and passes root, outDir, base and cacheDir inline; these are the fixed parts.
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'static',
  build: { format: 'directory', inlineStylesheets: 'never' },
  devToolbar: { enabled: false },
  prefetch: false,
  scopedStyleStrategy: 'class',
});
