/**
 * The one cache of the runtime: least recently used out first, bounded by the summed weight of its
 * values (bytes, UTF-16 units). A value heavier than `maxItemWeight` is not kept, so one huge file
 * cannot flush everything else.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  private weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number,
    private readonly maxItemWeight: number = maxWeight,
  ) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.maxItemWeight) return;
    this.delete(key);
    this.entries.set(key, value);
    this.weight += weight;
    this.trimTo(this.maxWeight);
  }

  delete(key: K): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.weight -= this.weigh(old);
  }

  /** Drops the least recently used values until the weight held is at most `weight`. */
  trimTo(weight: number): void {
    for (const [key, value] of this.entries) {
      if (this.weight <= weight) break;
      this.entries.delete(key);
      this.weight -= this.weigh(value);
    }
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  /** The summed weight held now. */
  get size(): number {
    return this.weight;
  }
}

/** Decoded script texts kept per archive version or folder, in UTF-16 code units (about twice that in bytes). */
export const TEXT_CACHE_UNITS = 32 * 1024 * 1024;

/**
 * The longest text kept: any text up to the read limit (decision, issue 15). A 31 MiB script is read
 * and hashed again on every request otherwise (about 300 ms per explain page); keeping it costs the
 * other texts, which are small and cheap to read again.
 */
export const MAX_CACHED_TEXT_UNITS = TEXT_CACHE_UNITS;

/**
 * The shortest text an archive reader keeps (UTF-16 units). Smaller files (most scripts) are
 * decompiled or decoded again in tens of microseconds, less than a request's own overhead; kept, every one of
 * them survives the young generation and is copied by each scavenge, which is what made the slow
 * reads slow (pauses of several milliseconds on one read in a hundred).
 */
export const MIN_CACHED_TEXT_UNITS = 16 * 1024;
