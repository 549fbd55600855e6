/**
 * The file table (pvf-nkpi-format §5): FileCount plaintext items of six little-endian int32s —
 * NameOffset, PathOffset, chunk, offset in the chunk, DataSize, DataType.
 *
 * The open checks every item's two string offsets against the sizes the pools state, so a table that
 * points past its pools is refused at open even though the pools are inflated later (pools.ts).
 */
import { offsetInPools, type PoolSizes } from './pools.js';

export const FILE_ITEM_BYTES = 24;

export type StringField = 'NameOffset' | 'PathOffset';

/** Calls `outOfRange` (which throws) for the first offset past the end of its pool, PathOffset before NameOffset within an item. */
export function checkStringOffsets(table: DataView, fileCount: number, sizes: PoolSizes, outOfRange: (entry: number, field: StringField, offset: number) => never): void {
  // Offsets are checked only when they change: a folder's files share one PathOffset.
  let lastPath = -1;
  for (let e = 0; e < fileCount; e++) {
    const at = FILE_ITEM_BYTES * e;
    const pathOffset = table.getInt32(at + 4, true);
    if (pathOffset !== lastPath) {
      if (!offsetInPools(pathOffset, sizes)) outOfRange(e, 'PathOffset', pathOffset);
      lastPath = pathOffset;
    }
    // Inline for the common case (an sTrA name): this loop runs over every file at every open.
    const nameOffset = table.getInt32(at, true);
    if (nameOffset >= 0 && ((nameOffset & 1) !== 0 || nameOffset >>> 1 >= sizes.a) && !offsetInPools(nameOffset, sizes)) outOfRange(e, 'NameOffset', nameOffset);
  }
}
