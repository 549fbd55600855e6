/**
 * Fuzzing (seeded, reproducible): thousands of mutations of valid nkpi archives, each ending in a typed
 * PvfdocError or a read, within bounded time; and a property test of the renderer: any token stream
 * pvfine's encoder can produce renders to text that encodes back to the same tokens.
 *
 * - Raw mutations (truncations, bit flips, int32 overwrites anywhere): open (with the first path
 *   operation, which inflates the pools), list and read everything; only PvfdocErrors may come out. Flips confined to zlib-protected bytes (the name table and the body:
 *   Adler-32 checks every stream) must not change what opens: the listing is the original's and each
 *   file reads as before or fails.
 * - Structural mutations (a header field, a GRPI entry, a file-table field set to an interesting value,
 *   with the sections re-encrypted) and archives of random token streams: results or PvfdocErrors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPvfdocError } from '../../../runtime/errors.js';
import { openNkpiArchiveBytes, type NkpiArchive } from '../../../runtime/nkpi/nkpi-archive.js';
import { readNkpiTokens, renderNkpiScript } from '../../../runtime/nkpi/render-script.js';
import { float32Bits, float32FromBits } from '../../../runtime/script/script-float.js';
import { encodeScriptText, NkpiArchiveBuilder, NkpiPoolBuilder, tokenBytes, type NkpiToken } from '../../support/write-nkpi-archive.js';
import { seededRandom, vectorBytes } from './helpers.js';
import { openOrRefused, readOrRefused, walkArchive } from '../../support/walk-archive.js';
import { layoutOf, patchGrpi, patchHeader, patchTable } from './mutate.js';

function realistic(keys: 'standard' | 'alternate', guard: boolean): Buffer {
  const builder = new NkpiArchiveBuilder({ keys, guard, chunkBytes: 96 });
  builder.addScript('equipment/equipment.lst', '1 `character/sword.equ`\n2 `character/名字.equ`');
  builder.addScript('equipment/character/sword.equ', '[name]\n`Sword`\n[grade]\n74 1.5 -0.25\n[skill data up]\n`[swordman]` 1 `[dungeon]` `[level]` 0 `+` 750\n[/skill data up]\n[command]\n{5=`(USEITEMSKILL)`}\n{10=` rs(1, 0) `}\n[/command]');
  builder.addScript('equipment/character/名字.equ', '[name]\n{8=`<3::name_2>`}\n[rarity]\n7');
  builder.addScript('list/n_string.lst', '3 `String/equipment.uv.str`');
  builder.addScript('skill/a.skl', '[level info]\n3 1 2 3 4 5 6\n[skill]\n9 1 2 3 4 5 6 7 8 9');
  builder.addText('String/equipment.uv.str', 'name_2>名字\r\n\u0000\u0000');
  builder.addText('etc/readme.txt', 'plain text\n');
  builder.addFile('sprite/a.img', 0, Uint8Array.from([0x4e, 0x65, 0x6f, 0, 1, 2, 0xff]));
  builder.addTokens('etc/odd.etc', [[0, 5], [1, 2], [9, 3], [2, float32Bits(-0)], [11, 7]]);
  return builder.build();
}

const BASES = [
  { name: 'nkpi-standard.pvf', bytes: vectorBytes() },
  { name: 'realistic-standard-guard.pvf', bytes: realistic('standard', true) },
  { name: 'realistic-alternate.pvf', bytes: realistic('alternate', false) },
];

const INTERESTING = [0, 1, 2, 3, 4, 5, 24, 255, 256, 0xffff, -1, -2, 0x7fffffff, -0x80000000, 0x40000000, 0x3fffffff];

interface Snapshot {
  listings: Record<string, string[]>;
  files: Record<string, string>;
}

/** Lists and reads everything; only PvfdocErrors may come out. */
function exercise(bytes: Uint8Array, label: string, reference: Snapshot | null): { opened: boolean; errors: number } {
  // The open defers inflating the pools to the first path operation: both together are what may refuse.
  const archive: NkpiArchive | null = openOrRefused(() => {
    const opened = openNkpiArchiveBytes(bytes, label);
    void opened.fileCount;
    return opened;
  }, label);
  if (archive === null) return { opened: false, errors: 1 };
  let errors = 0;
  const listings = walkArchive(archive, (file) => {
    const read = () => {
      const data = Buffer.from(archive.readFile(file)).toString('hex');
      const text = archive.readText(file);
      const expected = reference?.files[file];
      if (expected !== undefined) expect(`${data}|${text.text}|${text.isScript}`, `${label}: ${file}`).toBe(expected);
    };
    if (!readOrRefused(read, label, file)) errors++;
  });
  if (reference) expect(listings, label).toEqual(reference.listings);
  archive.warnings();
  return { opened: true, errors };
}

function snapshot(bytes: Uint8Array): Snapshot {
  const archive = openNkpiArchiveBytes(bytes, 'reference');
  const files: Record<string, string> = {};
  const listings = walkArchive(archive, (file) => {
    const text = archive.readText(file);
    files[file] = `${Buffer.from(archive.readFile(file)).toString('hex')}|${text.text}|${text.isScript}`;
  });
  return { listings, files };
}

describe('fuzz: mutated nkpi archives end in a typed error or a read', () => {
  for (const base of BASES) {
    it(`${base.name}: 1200 raw mutations, 400 protected-region flips, 400 structural ones`, () => {
      const reference = snapshot(base.bytes);
      const layout = layoutOf(base.bytes);
      const random = seededRandom(0xc0ffee ^ base.bytes.length);
      const int = (n: number) => Math.floor(random() * n);
      const interesting = () => (random() < 0.8 ? (INTERESTING[int(INTERESTING.length)] as number) : int(0x100000000) | 0);
      const totals = { opened: 0, failedOpen: 0, readErrors: 0 };
      let slowest = 0;
      const started = performance.now();
      for (let i = 0; i < 2000; i++) {
        let bytes: Buffer;
        let kind: string;
        let protectedOnly = false;
        const r = i < 1200 ? i % 3 : i < 1600 ? 3 : 4;
        if (r === 0) {
          kind = 'truncate';
          bytes = base.bytes.subarray(0, int(base.bytes.length));
        } else if (r === 1) {
          kind = 'flip';
          bytes = Buffer.from(base.bytes);
          for (let f = 1 + int(8); f > 0; f--) {
            const at = int(bytes.length);
            bytes[at] = (bytes[at] as number) ^ (1 << int(8));
          }
        } else if (r === 2) {
          kind = 'overwrite';
          bytes = Buffer.from(base.bytes);
          bytes.writeInt32LE(interesting(), int(bytes.length - 3));
        } else if (r === 3) {
          kind = 'protected';
          protectedOnly = true;
          bytes = Buffer.from(base.bytes);
          const names = [layout.names + 8, layout.grpi] as const;
          const body = [layout.body, bytes.length] as const;
          for (let f = 1 + int(4); f > 0; f--) {
            const [from, to] = random() < 0.5 ? names : body;
            const at = from + int(to - from);
            bytes[at] = (bytes[at] as number) ^ (1 << int(8));
          }
        } else {
          kind = 'structural';
          const which = int(3);
          if (which === 0) bytes = patchHeader(base.bytes, (h) => h.setInt32(24 + 4 * int(6), interesting(), true));
          else if (which === 1) bytes = patchGrpi(base.bytes, (g, count) => g.setInt32(4 * int(2 * count), interesting(), true));
          else bytes = patchTable(base.bytes, int(layout.probe.header.fileCount), int(6), interesting());
        }
        const t0 = performance.now();
        const outcome = exercise(bytes, `${base.name}#${i}-${kind}`, protectedOnly ? reference : null);
        slowest = Math.max(slowest, performance.now() - t0);
        if (outcome.opened) {
          totals.opened++;
          totals.readErrors += outcome.errors;
        } else totals.failedOpen++;
      }
      const elapsed = performance.now() - started;
      if (process.env.FUZZ_REPORT) console.log(base.name, JSON.stringify(totals), `slowest ${slowest.toFixed(1)} ms`, `total ${elapsed.toFixed(0)} ms`);
      expect(totals.failedOpen).toBeGreaterThan(100);
      expect(totals.opened).toBeGreaterThan(50);
    });
  }

  it('500 archives of random token streams (any type, any value): texts or typed errors', () => {
    const random = seededRandom(77);
    const int = (n: number) => Math.floor(random() * n);
    let errors = 0;
    let texts = 0;
    for (let i = 0; i < 500; i++) {
      const builder = new NkpiArchiveBuilder({ chunkBytes: 64 });
      const strings = ['[a]', '[/a]', '[b]', '[/b]', 'word', '名字', '`', '', '[skill]', '[level info]', '[/]'].map((s) => builder.pool.offsetOf(s));
      for (let f = 0; f < 4; f++) {
        const tokens: NkpiToken[] = [];
        for (let t = int(40); t > 0; t--) {
          const type = int(13);
          const value = random() < 0.6 ? (strings[int(strings.length)] as number) : INTERESTING[int(INTERESTING.length)] as number;
          tokens.push([type, value]);
        }
        builder.addTokens(`f${f}.${['equ', 'lst', 'skl', 'str'][f]}`, tokens);
      }
      const archive = openNkpiArchiveBytes(builder.build(), `tokens#${i}`);
      for (const entry of archive.list('')) {
        try {
          archive.readText(entry.path);
          texts++;
        } catch (error) {
          if (!isPvfdocError(error)) throw error;
          expect(error.code).toBe('INVALID_ARCHIVE');
          errors++;
        }
      }
    }
    expect(texts).toBeGreaterThan(200);
    expect(errors).toBeGreaterThan(50);
  });
});

/** Tokens with their strings resolved, for comparing two encodings. */
function resolved(tokens: readonly NkpiToken[], pool: NkpiPoolBuilder): unknown[] {
  return tokens.map(([type, value]) => {
    if (type === 0) return [0, value];
    if (type === 2) return [2, Object.is(float32FromBits(value), -0) ? '-0' : float32FromBits(value)];
    return [type, pool.strings.get(value)];
  });
}

describe('property: render then encode gives the same tokens', () => {
  const word = fc.stringMatching(/^w[a-z_.]{0,6}$/);
  const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '`', '}', '{', '\n', '\t', '名', '[', ']', '<', ':', '>', '1'), maxLength: 8 });
  const name = fc.constantFrom('a', 'b', 'skill', 'level info', 'skill data up', 'list', 'x y');
  const token = fc.oneof(
    fc.integer({ min: -0x80000000, max: 0x7fffffff }).map((v) => ({ type: 0, v }) as const),
    fc.float({ noNaN: true }).map((v) => ({ type: 2, v }) as const),
    word.map((v) => ({ type: 3, v }) as const),
    name.map((v) => ({ type: 3, v: `[${v}]` }) as const),
    name.map((v) => ({ type: 3, v: `[/${v}]` }) as const),
    text.map((v) => ({ type: 6, v }) as const),
    fc.tuple(fc.constantFrom(5, 7, 8, 10), text.filter((s) => !/^\s*[+-]?\d+\s*$/.test(s) && !/^\s*`.*`\s*$/s.test(s))).map(([type, v]) => ({ type, v })),
  );

  it('for 400 random streams, with pvfine’s default rules and for .lst files', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), fc.constantFrom('x.equ', 'x.lst', 'x.skl'), (stream, path) => {
        const pool = new NkpiPoolBuilder();
        const tokens: NkpiToken[] = stream.map((t) => (t.type === 0 ? [0, t.v] : t.type === 2 ? [2, float32Bits(t.v)] : [t.type, pool.offsetOf(t.v)]));
        const strings = pool.strings;
        const rendered = renderNkpiScript(readNkpiTokens(tokenBytes(tokens)), { archive: 'p', path, string: (o) => strings.get(o) ?? null, describeOffset: String });
        const again = new NkpiPoolBuilder();
        const encoded = encodeScriptText(rendered.text, again);
        expect(resolved(encoded, again)).toEqual(resolved(tokens, pool));
      }),
      { numRuns: 400, seed: 20240611 },
    );
  });
});
