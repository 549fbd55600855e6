import { compileLayers } from '../../build/compile-layers.js';
import { openBuiltBundle, type Bundle } from '../../runtime/bundle/load-bundle.js';

/** The layers compiled in memory and opened as a bundle; any error fails the test with the problems. */
export async function compiledBundle(dirs: readonly string[]): Promise<Bundle> {
  const result = await compileLayers(dirs);
  if (!result.ok) throw new Error(`the layers do not compile:\n${JSON.stringify(result.problems, null, 2)}`);
  return openBuiltBundle(result.bundle.files);
}
