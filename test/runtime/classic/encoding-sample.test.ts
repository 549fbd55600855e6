/**
 * Encoding detection reads the whole sample once per candidate (NUL-joined, text-encoding.ts; the
 * double-byte candidates count its failing strings with dbcs-scan.ts instead of decoding it). These
 * tests hold it to the string-by-string detection it replaced: the same failure counts and the same
 * verdict on random samples of real text in each encoding, random bytes, lead bytes cut at a string's
 * end, strings holding NULs, and text that ties (GBK decodes almost anything).
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { COMMON_CHARACTERS, commonShare } from '../../../runtime/classic/common-characters.js';
import { decodeText, detectEncoding, detectEncodingIn, encodeText, type EncodingDetection } from '../../../runtime/classic/text-encoding.js';
import { seededRandom } from '../../support/random.js';

const CANDIDATES = ['cp950', 'cp936', 'cp949', 'utf-8'];
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The detection as it was: every sampled string decoded on its own with every candidate. */
function referenceDetection(strings: Uint8Array[], given?: string): EncodingDetection {
  const sample = strings.filter((s) => s.some((b) => b >= 0x80)).slice(0, 20_000);
  const decodes = (s: Uint8Array, encoding: string): boolean => {
    if (encoding !== 'utf-8') return !iconv.decode(Buffer.from(s), encoding).includes('\uFFFD');
    try {
      strictUtf8.decode(s);
      return true;
    } catch {
      return false;
    }
  };
  const candidates = given !== undefined && !CANDIDATES.includes(given) ? [...CANDIDATES, given] : CANDIDATES;
  const failures: Record<string, number> = {};
  for (const encoding of candidates) failures[encoding] = sample.filter((s) => !decodes(s, encoding)).length;
  if (given !== undefined) return { encoding: given, source: 'given', sampled: sample.length, failures };
  if (sample.length === 0) return { encoding: 'cp950', source: 'default', sampled: 0, failures };
  const fewest = Math.min(...CANDIDATES.map((e) => failures[e] as number));
  const tied = CANDIDATES.filter((e) => failures[e] === fewest);
  let best = tied[0] as string;
  let bestShare = -1;
  if (tied.length > 1) {
    for (const encoding of tied) {
      const share = commonShare(sample.map((s) => decodeText(s, encoding)).join(''), COMMON_CHARACTERS[encoding] as ReadonlySet<string>);
      if (share > bestShare + 0.05) {
        best = encoding;
        bestShare = share;
      }
    }
  }
  return { encoding: best, source: 'detected', sampled: sample.length, failures };
}

const WORDS: Record<string, string[]> = {
  cp936: ['攻击力增加', '物理伤害', '魔法防御', '效果持续时间', '金刚碎', '特级生命秘药', '体力', '精神'],
  cp950: ['攻擊力增加', '物理傷害', '技能冷卻時間', '魔法防禦', '效果持續時間', '鬥神之手甲'],
  cp949: ['공격력 증가', '물리 공격력', '스킬 쿨타임', '마법 방어력', '지속 시간', '금강쇄'],
  'utf-8': ['攻击力 공격력 攻擊力', 'é ü ß', '✓ →'],
};

/** A random sample: text in one encoding, with some strings damaged, cut or made of random bytes. */
function randomSample(rng: () => number, encoding: string): Uint8Array[] {
  const words = WORDS[encoding] as string[];
  const out: Uint8Array[] = [];
  const count = 1 + Math.floor(rng() * 60);
  for (let i = 0; i < count; i++) {
    const r = rng();
    const text = `${words[Math.floor(rng() * words.length)]}${rng() < 0.5 ? ' 12' : ''}${words[Math.floor(rng() * words.length)]}`;
    let bytes = Buffer.from(encodeText(text, encoding));
    if (r < 0.15) bytes = bytes.subarray(0, Math.max(1, bytes.length - 1 - Math.floor(rng() * 3)));
    else if (r < 0.3) bytes = Buffer.from(Array.from({ length: 1 + Math.floor(rng() * 12) }, () => Math.floor(rng() * 256)));
    else if (r < 0.38) bytes = Buffer.concat([bytes, Buffer.from([0, 0x81 + Math.floor(rng() * 0x7e)]), bytes]);
    else if (r < 0.45) bytes = Buffer.concat([bytes, Buffer.from([0x81 + Math.floor(rng() * 0x7e)])]);
    else if (r < 0.5) bytes = Buffer.from('plain ascii');
    out.push(bytes);
  }
  return out;
}

describe('encoding detection over a joined sample', () => {
  it('gives the string-by-string failure counts and verdict on 600 random samples', () => {
    const rng = seededRandom(20261201);
    const verdicts = new Set<string>();
    for (let round = 0; round < 600; round++) {
      const encoding = CANDIDATES[round % CANDIDATES.length] as string;
      const sample = randomSample(rng, encoding);
      const expected = referenceDetection(sample);
      expect(detectEncoding(sample)).toEqual(expected);
      verdicts.add(expected.encoding);
      if (round % 50 === 0) expect(detectEncoding(sample, 'gbk')).toEqual(referenceDetection(sample, 'gbk'));
    }
    // The samples reach every verdict, so a wrong split would show.
    expect([...verdicts].sort()).toEqual([...CANDIDATES].sort());
  });

  it('counts a lead byte cut at the end of a string, before a NUL inside one, and a lone one', () => {
    const cut = Buffer.from(encodeText('攻击', 'cp936')).subarray(0, 3);
    const samples = [cut, Buffer.from([0xa4, 0x00, 0xa4, 0xa4]), Buffer.from([0xff]), Buffer.from(encodeText('攻击', 'cp936'))];
    const result = detectEncoding(samples);
    expect(result).toEqual(referenceDetection(samples));
    expect(result.failures.cp936).toBe(3);
  });
});

describe('encoding detection that stops decoding a loser early', () => {
  /** A sample laid out as a string table: the strings back to back, some with NUL padding. */
  const tableOf = (strings: Uint8Array[]) => {
    const padded = strings.map((s, i) => (i % 3 === 0 ? Buffer.concat([s, Buffer.from([0, 0])]) : Buffer.from(s)));
    const starts = [0];
    for (const s of padded) starts.push((starts[starts.length - 1] as number) + s.length);
    return { count: strings.length, bytes: Buffer.concat(padded), starts: Uint32Array.from(starts), nulPadded: true as const };
  };
  /** A string as the padded table holds it: its own trailing NULs count as padding too. */
  const unpadded = (s: Uint8Array): Uint8Array => {
    let e = s.length;
    while (e > 0 && s[e - 1] === 0) e--;
    return s.subarray(0, e);
  };

  it('gives the same verdict, chosen count and (on access) every count with chunks of any size', () => {
    const rng = seededRandom(20261202);
    let cut = 0;
    for (let round = 0; round < 400; round++) {
      const encoding = CANDIDATES[round % CANDIDATES.length] as string;
      const sample = randomSample(rng, encoding);
      const expected = referenceDetection(sample);
      const chunk = 1 + Math.floor(rng() * 40);
      // Strings ending in NULs are trimmed by the table, exactly as the reference drops nothing else.
      const verdict = detectEncodingIn(tableOf(sample), undefined, chunk);
      const trimmed = sample.map(unpadded);
      const reference = referenceDetection(trimmed);
      expect(verdict.detection.encoding).toBe(reference.encoding);
      expect(verdict.chosenFailures).toBe(reference.failures[reference.encoding]);
      expect(verdict.detection.failures).toEqual(reference.failures);
      expect(verdict.detection.sampled).toBe(reference.sampled);
      expect(detectEncoding(sample, undefined, chunk)).toEqual(expected);
      if (verdict.detection.source === 'detected' && Object.values(reference.failures).some((n) => n > (reference.failures[reference.encoding] as number))) cut++;
    }
    // Most rounds have a candidate that loses, so the early stop is exercised.
    expect(cut).toBeGreaterThan(200);
  });

  it('finds a validly encoded U+FFFD no UTF-8 failure (it is checked string by string)', () => {
    const replacement = Buffer.from('\uFFFD ok', 'utf8');
    const samples = [replacement, Buffer.from('é ü', 'utf8'), Buffer.from([0xc3])];
    const result = detectEncoding(samples, undefined, 2);
    expect(result).toEqual(referenceDetection(samples));
    expect(result.failures['utf-8']).toBe(1);
  });
});
