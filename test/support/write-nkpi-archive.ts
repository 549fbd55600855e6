/**
 * Test-only writer of nkpi-family archives (pvf-nkpi-format §16), so tests and benchmarks can build
 * archives of any size from script texts. Never used by runtime/.
 *
 * - Scripts are encoded as pvfine encodes its text dialect (§11.3), with explain's lexer
 *   (runtime/script/lex-script.ts, pvfine's lexer): `[x]` and bare words → type 3, backtick strings →
 *   6, `{N=…}` (N in 5, 7, 8, 10) → N with the pooled text, or the literal value when the text is an
 *   int32 (pvfine's quirk, §11.4), ints → 0, floats → 2 (float32 bits). `#` comments are not stored.
 *   Classic-only forms that explain's lexer also reads (`{6=…}`, `<id::key`text`>`, `{3=n}`, `{4=n}`)
 *   are stored as the tokens it reads them as (a type-6 string, a type-8 placeholder, an int, a float),
 *   so explain sees the same tokens in the archive; pvfine would split them into words.
 * - Strings are pooled as pvfine does (§7.2): an existing string is reused (sTrA first, then sTrW,
 *   first occurrence); a new one goes to sTrW when it is non-ASCII (or always, for Paged110), else to
 *   sTrA. Both pools start with an empty string. Script strings are pooled when a script is added;
 *   file and folder names when the archive is built (name, then folder, per file in order).
 * - Files go into chunks in the order given, a new chunk once the current one holds `chunkBytes`.
 * - HASH is regenerated (§6): count = FileCount, (name, path) pairs, then every distinct offset sorted
 *   by its string (UTF-8 bytes).
 * - Header: GUID and Padding as given (zero by default), encrypted, then the guard XOR.
 *
 * Node 20's zlib (a Chromium fork of 1.3.1) compresses differently from the zlib 1.2.13 that made the
 * §17.5 vector; `deflate` lets a test supply the vector's own streams.
 */
import { createCipheriv } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { parseFloat32, parseInt32 } from '../../runtime/script/canonical-number.js';
import { lexScript } from '../../runtime/script/lex-script.js';
import { float32Bits } from '../../runtime/script/script-float.js';
import { GUARD_BYTE, NKPI_HEADER_BYTES, NKPI_SIGNATURE } from '../../runtime/nkpi/header.js';
import { ALTERNATE_KEYS, LCG_ALT, LCG_MAIN, PAGED110_KEYS, STANDARD_KEYS, xorKeystream, type NkpiKeySet, type NkpiKeySetName } from '../../runtime/nkpi/keystream.js';
import { PAGE_BYTES, PAGE_GUARD_BYTES } from '../../runtime/nkpi/paged.js';

const KEY_SETS: Record<NkpiKeySetName, NkpiKeySet> = { standard: STANDARD_KEYS, alternate: ALTERNATE_KEYS, paged110: PAGED110_KEYS };

const NON_ASCII = /[^\u0000-\u007f]/;

/** The two pools, with pvfine's placement and reuse rules. */
export class NkpiPoolBuilder {
  private readonly aParts: Buffer[] = [];
  private aLength = 0;
  private readonly wParts: Buffer[] = [];
  private wLength = 0;
  private readonly aOffsets = new Map<string, number>();
  private readonly wOffsets = new Map<string, number>();
  /** offset → string, for HASH sorting. */
  readonly strings = new Map<number, string>();

  constructor(readonly utf16Only = false) {
    if (!utf16Only) this.append('', false);
    this.append('', true);
  }

  /** The magic offset of a string, pooling it when new. */
  offsetOf(s: string): number {
    const inA = this.aOffsets.get(s);
    if (inA !== undefined) return inA;
    const inW = this.wOffsets.get(s);
    if (inW !== undefined) return inW;
    return this.append(s, this.utf16Only || NON_ASCII.test(s) || this.aLength === 0);
  }

  private append(s: string, wide: boolean): number {
    let offset: number;
    if (wide) {
      offset = (((this.wLength >>> 1) << 1) | 1) >>> 0;
      const bytes = Buffer.from(`${s}\u0000`, 'utf16le');
      this.wParts.push(bytes);
      this.wLength += bytes.length;
      this.wOffsets.set(s, offset);
    } else {
      offset = this.aLength << 1;
      const bytes = Buffer.from(`${s}\u0000`, 'utf8');
      this.aParts.push(bytes);
      this.aLength += bytes.length;
      this.aOffsets.set(s, offset);
    }
    this.strings.set(offset, s);
    return offset;
  }

  get a(): Buffer {
    return Buffer.concat(this.aParts);
  }

  get w(): Buffer {
    return Buffer.concat(this.wParts);
  }
}

/** One token record: type + int32 value. */
export type NkpiToken = readonly [type: number, value: number];

/** Token records as a DataType-1 payload. */
export function tokenBytes(tokens: readonly NkpiToken[]): Buffer {
  const out = Buffer.alloc(5 * tokens.length);
  tokens.forEach(([type, value], k) => {
    out[5 * k] = type;
    out.writeInt32LE(value | 0, 5 * k + 1);
  });
  return out;
}

/** Encodes script text as pvfine does (§11.3), pooling strings in `pool`. */
export function encodeScriptText(text: string, pool: NkpiPoolBuilder): NkpiToken[] {
  const tokens: NkpiToken[] = [];
  for (const token of lexScript(text).tokens) {
    if (token.kind !== 'value') {
      tokens.push([3, pool.offsetOf(text.slice(token.start, token.end))]);
      continue;
    }
    switch (token.type) {
      case 0:
        tokens.push([0, parseInt32(token.value) ?? 0]);
        break;
      case 2:
        tokens.push([2, float32Bits(parseFloat32(token.value) ?? 0)]);
        break;
      case 3:
        // A `[]` / `[/]` word keeps its raw text.
        tokens.push([3, pool.offsetOf(token.value.startsWith('[') ? text.slice(token.start, token.end) : token.value)]);
        break;
      case 6:
        tokens.push([6, pool.offsetOf(token.value)]);
        break;
      default: {
        const literal = parseInt32(token.value);
        tokens.push([token.type, literal ?? pool.offsetOf(token.value)]);
      }
    }
  }
  return tokens;
}

export interface NkpiWriterOptions {
  /** Key set (default standard). */
  keys?: NkpiKeySetName;
  /** XOR 0x55 onto the stored FileCount bytes (default false). */
  guard?: boolean;
  /** Header bytes 4..23 (default zeros). */
  guid?: Uint8Array;
  /** Header "Padding" field (default 0). */
  padding?: number;
  /** Name-table prefix (8 bytes, default zeros). */
  namePrefix?: Uint8Array;
  /** Start a new chunk once the current one holds this many bytes (default 64 KiB). */
  chunkBytes?: number;
  /** zlib compressor (default Node's deflateSync, level 6). */
  deflate?: (raw: Buffer) => Buffer;
  /** Extra HASH pairs after the real ones (alternate archives carry FileCount + 19; default 0). */
  hashExtra?: number;
}

interface PendingFile {
  path: string;
  dataType: number;
  data: Uint8Array;
}

/** Builds one archive: add scripts and files in order, then `build()`. */
export class NkpiArchiveBuilder {
  readonly pool: NkpiPoolBuilder;
  private readonly files: PendingFile[] = [];

  constructor(readonly options: NkpiWriterOptions = {}) {
    this.pool = new NkpiPoolBuilder(options.keys === 'paged110');
  }

  /** A script text, encoded now (its strings are pooled in call order). */
  addScript(path: string, text: string): this {
    return this.addTokens(path, encodeScriptText(text, this.pool));
  }

  /** Token records as a DataType-1 file. */
  addTokens(path: string, tokens: readonly NkpiToken[]): this {
    return this.addFile(path, 1, tokenBytes(tokens));
  }

  /** Text as a DataType-3 (UTF-16LE) file. */
  addText(path: string, text: string, bom = false): this {
    return this.addFile(path, 3, Buffer.from(`${bom ? '\uFEFF' : ''}${text}`, 'utf16le'));
  }

  /** A payload stored as it is. */
  addFile(path: string, dataType: number, data: Uint8Array): this {
    this.files.push({ path, dataType, data });
    return this;
  }

  get fileCount(): number {
    return this.files.length;
  }

  build(): Buffer {
    const options = this.options;
    const keys = KEY_SETS[options.keys ?? 'standard'];
    const deflate = options.deflate ?? ((raw: Buffer) => deflateSync(raw, { level: 6 }));
    const chunkBytes = options.chunkBytes ?? 64 * 1024;
    const pool = this.pool;

    // File table (names pooled now: name, then folder).
    const n = this.files.length;
    const table = Buffer.alloc(24 * n);
    const chunks: Buffer[][] = [];
    let current: Buffer[] = [];
    let currentSize = 0;
    const offsets: number[] = [];
    for (let e = 0; e < n; e++) {
      const file = this.files[e] as PendingFile;
      const slash = file.path.lastIndexOf('/');
      const name = file.path.slice(slash + 1);
      const dir = slash < 0 ? '' : file.path.slice(0, slash);
      const nameOffset = pool.offsetOf(name);
      const pathOffset = pool.offsetOf(dir);
      offsets.push(nameOffset, pathOffset);
      if (currentSize >= chunkBytes && current.length > 0) {
        chunks.push(current);
        current = [];
        currentSize = 0;
      }
      table.writeInt32LE(nameOffset, 24 * e);
      table.writeInt32LE(pathOffset, 24 * e + 4);
      table.writeInt32LE(chunks.length, 24 * e + 8);
      table.writeInt32LE(currentSize, 24 * e + 12);
      table.writeInt32LE(file.data.length, 24 * e + 16);
      table.writeInt32LE(file.dataType, 24 * e + 20);
      current.push(Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength));
      currentSize += file.data.length;
    }
    if (current.length > 0 || chunks.length === 0) chunks.push(current);

    // HASH.
    const distinct = [...new Set(offsets.filter((o, k) => k % 2 === 0 || o >= 0))];
    const text = (o: number) => pool.strings.get(o) ?? '';
    const hasSurrogates = [...pool.strings.values()].some((s) => /[\ud800-\udfff]/.test(s));
    if (hasSurrogates) {
      const bytes = new Map(distinct.map((o) => [o, Buffer.from(text(o), 'utf8')]));
      distinct.sort((x, y) => Buffer.compare(bytes.get(x) as Buffer, bytes.get(y) as Buffer) || x - y);
    } else {
      distinct.sort((x, y) => (text(x) < text(y) ? -1 : text(x) > text(y) ? 1 : x - y));
    }
    const extra = options.hashExtra ?? 0;
    const hash = Buffer.alloc(4 + 8 * (n + extra) + 4 + 4 * distinct.length);
    hash.writeInt32LE(n + extra, 0);
    for (let k = 0; k < offsets.length; k++) hash.writeInt32LE(offsets[k] as number, 4 + 4 * k);
    for (let k = 0; k < extra; k++) {
      hash.writeInt32LE(0, 4 + 8 * n + 8 * k);
      hash.writeInt32LE(-1, 8 + 8 * n + 8 * k);
    }
    let at = 4 + 8 * (n + extra);
    hash.writeInt32LE(distinct.length, at);
    at += 4;
    for (const o of distinct) {
      hash.writeInt32LE(o, at);
      at += 4;
    }
    xorKeystream(hash, keys.hash, LCG_MAIN);

    // Name table.
    const frame = (raw: Buffer, seed: number, mask: number): Buffer => {
      if (raw.length === 0) {
        const head = Buffer.alloc(8);
        head.writeUInt32LE(mask >>> 0, 0);
        head.writeUInt32LE(0, 4);
        return head;
      }
      const enc = Buffer.from(deflate(raw));
      xorKeystream(enc, seed, LCG_ALT);
      const head = Buffer.alloc(8);
      head.writeUInt32LE((enc.length ^ mask) >>> 0, 0);
      head.writeUInt32LE((raw.length ^ enc.length) >>> 0, 4);
      return Buffer.concat([head, enc]);
    };
    const names = Buffer.concat([
      Buffer.from(options.namePrefix ?? new Uint8Array(8)),
      frame(pool.a, keys.strA, keys.maskA),
      frame(pool.w, keys.strW, keys.maskW),
    ]);

    // Body and GRPI.
    const grpi = Buffer.alloc(8 * chunks.length);
    const bodyParts: Buffer[] = [];
    let cum = 0;
    chunks.forEach((parts, i) => {
      let raw = Buffer.concat(parts);
      // pvfine requires 0 < orig: an empty chunk holds one zero byte.
      if (raw.length === 0) raw = Buffer.alloc(1);
      const enc = Buffer.from(deflate(raw));
      xorKeystream(enc, keys.body, LCG_MAIN);
      bodyParts.push(enc);
      cum += enc.length;
      grpi.writeInt32LE(cum, 8 * i);
      grpi.writeInt32LE(raw.length, 8 * i + 4);
    });
    xorKeystream(grpi, keys.grpi, LCG_MAIN);

    // Header.
    const header = Buffer.alloc(NKPI_HEADER_BYTES);
    header.writeUInt32LE(NKPI_SIGNATURE, 0);
    if (options.guid) Buffer.from(options.guid).copy(header, 4, 0, 20);
    header.writeInt32LE(n, 24);
    header.writeInt32LE(options.padding ?? 0, 28);
    header.writeInt32LE(cum, 32);
    header.writeInt32LE(chunks.length, 36);
    header.writeInt32LE(hash.length, 40);
    header.writeInt32LE(names.length, 44);
    xorKeystream(header, keys.header, LCG_MAIN);
    if (options.guard) for (let i = 24; i < 28; i++) header[i] = (header[i] as number) ^ GUARD_BYTE;

    return Buffer.concat([header, table, hash, names, grpi, ...bodyParts]);
  }
}

type Pairs<T> = Iterable<readonly [string, T]> | Record<string, T>;

function pairsOf<T>(input: Pairs<T> | undefined): [string, T][] {
  if (input === undefined) return [];
  if (Symbol.iterator in input) return [...(input as Iterable<readonly [string, T]>)].map(([k, v]) => [k, v]);
  return Object.entries(input as Record<string, T>);
}

/** A payload with an explicit DataType. */
interface TypedPayload {
  dataType: number;
  data: Uint8Array;
}

interface WriteNkpiArchiveInput extends NkpiWriterOptions {
  /** Script texts (DataType 1), encoded in this order. */
  scripts?: Pairs<string>;
  /**
   * Other files, after the scripts: text → DataType 3 (UTF-16LE), bytes → DataType 0 (opaque), or a
   * TypedPayload as given.
   */
  files?: Pairs<string | Uint8Array | TypedPayload>;
}

/** Encodes scripts, adds files and writes the archive bytes. */
export function writeNkpiArchive(input: WriteNkpiArchiveInput): Buffer {
  const builder = new NkpiArchiveBuilder(input);
  for (const [path, text] of pairsOf(input.scripts)) builder.addScript(path, text);
  for (const [path, content] of pairsOf(input.files)) {
    if (typeof content === 'string') builder.addText(path, content);
    else if (content instanceof Uint8Array) builder.addFile(path, 0, content);
    else builder.addFile(path, content.dataType, content.data);
  }
  return builder.build();
}

/**
 * Locks a logical Paged110 archive (§14.1): AES-256-CBC-encrypts (IV 0) the first 10,240 bytes of every
 * 10 MiB page in place, page i with key i; pages past the key count and a last page shorter than
 * 10,240 bytes stay plain. Test keys only: real ones come from a client install.
 */
export function lockPages(bytes: Buffer, pageKeys: readonly Uint8Array[]): Buffer {
  const out = Buffer.from(bytes);
  for (let page = 0; page * PAGE_BYTES < out.length && page < pageKeys.length; page++) {
    const start = page * PAGE_BYTES;
    if (Math.min(PAGE_BYTES, out.length - start) < PAGE_GUARD_BYTES) continue;
    const cipher = createCipheriv('aes-256-cbc', pageKeys[page] as Uint8Array, Buffer.alloc(16));
    cipher.setAutoPadding(false);
    const enc = Buffer.concat([cipher.update(out.subarray(start, start + PAGE_GUARD_BYTES)), cipher.final()]);
    enc.copy(out, start);
  }
  return out;
}
