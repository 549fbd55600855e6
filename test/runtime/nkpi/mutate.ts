/**
 * Section-level edits of nkpi archive bytes for the bad-input and fuzz tests: decrypt a section, change
 * it, encrypt it again with the archive's own keys (the header keeps its guard).
 */
import { GUARD_BYTE, NKPI_HEADER_BYTES, probeNkpiHeader, type HeaderProbe } from '../../../runtime/nkpi/header.js';
import { LCG_MAIN, xorKeystream } from '../../../runtime/nkpi/keystream.js';

export interface Layout {
  probe: HeaderProbe;
  table: number;
  hash: number;
  names: number;
  grpi: number;
  body: number;
}

export function layoutOf(bytes: Uint8Array): Layout {
  const result = probeNkpiHeader(bytes.subarray(0, NKPI_HEADER_BYTES), bytes.length);
  if (!result.ok) throw new Error(`not a readable nkpi archive: ${result.problem}`);
  const h = result.ok.header;
  const table = NKPI_HEADER_BYTES;
  const hash = table + 24 * h.fileCount;
  const names = hash + h.hashTableSize;
  const grpi = names + h.nameTableSize;
  return { probe: result.ok, table, hash, names, grpi, body: grpi + 8 * h.groupCount };
}

/** Decrypts the header, lets `change` edit the plaintext (DataView), encrypts and re-guards it. */
export function patchHeader(bytes: Uint8Array, change: (plain: DataView) => void): Buffer {
  const { probe } = layoutOf(bytes);
  const out = Buffer.from(bytes);
  const header = out.subarray(0, NKPI_HEADER_BYTES);
  if (probe.guard) for (let i = 24; i < 28; i++) header[i] = (header[i] as number) ^ GUARD_BYTE;
  xorKeystream(header, probe.keys.header, probe.headerM);
  change(new DataView(header.buffer, header.byteOffset, NKPI_HEADER_BYTES));
  xorKeystream(header, probe.keys.header, probe.headerM);
  if (probe.guard) for (let i = 24; i < 28; i++) header[i] = (header[i] as number) ^ GUARD_BYTE;
  return out;
}

/** Decrypts GRPI, lets `change` edit {cum, orig} pairs, encrypts it again. */
export function patchGrpi(bytes: Uint8Array, change: (plain: DataView, count: number) => void): Buffer {
  const layout = layoutOf(bytes);
  const out = Buffer.from(bytes);
  const count = layout.probe.header.groupCount;
  const grpi = out.subarray(layout.grpi, layout.grpi + 8 * count);
  xorKeystream(grpi, layout.probe.keys.grpi, LCG_MAIN);
  change(new DataView(grpi.buffer, grpi.byteOffset, grpi.byteLength), count);
  xorKeystream(grpi, layout.probe.keys.grpi, LCG_MAIN);
  return out;
}

/** Edits the (plaintext) file table: field k (0 name, 1 path, 2 chunk, 3 offset, 4 size, 5 type) of item e. */
export function patchTable(bytes: Uint8Array, entry: number, field: number, value: number): Buffer {
  const layout = layoutOf(bytes);
  const out = Buffer.from(bytes);
  out.writeInt32LE(value | 0, layout.table + 24 * entry + 4 * field);
  return out;
}
