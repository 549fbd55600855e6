/**
 * The one seeded PRNG of the tests and benchmarks. Fixtures, fuzz cases and the benchmark layer are
 * built from fixed seeds, so changing this function changes all of them (bench/generate-layer.ts
 * promises "same seed, same bytes").
 */

/** mulberry32: tiny, fast, deterministic; uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
