/**
 * Text encodings (pvf-classic-format §6.2, §6.3): detection among cp950, cp936, cp949 and utf-8 from
 * stringtable.bin, the override, CP949 names, text files with and without a BOM.
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { openClassicArchiveBytes } from '../../../runtime/classic/classic-archive.js';
import { decodeText, detectEncoding, encodeText, normalizeEncodingName } from '../../../runtime/classic/text-encoding.js';
import { seededRandom } from '../../support/random.js';
import { buildClassicArchive, writeClassicArchive } from '../../support/write-classic-archive.js';
import { sampleScripts } from './helpers.js';

const TRADITIONAL = [
  '#PVF_File\n[name]\n`2011年冠軍大賽紀念禮盒`\n[explain]\n`開啟後可獲得限定裝扮與稱號，僅限角色本人使用。`\n[flavor text]\n`第四屆全國冠軍大賽`',
  '#PVF_File\n[name]\n`鬥神之手甲`\n[basic explain]\n`攻擊力增加，屬性強化效果持續十秒。`',
];
const SIMPLIFIED = [
  '#PVF_File\n[name]\n`特级生命秘药`\n[explain]\n`使用后，增加1450点HP最大值，效果持续30分钟。`',
  '#PVF_File\n[name]\n`金刚碎`\n[explain]\n`向前方小跳后用双脚猛击地面，使敌人受到一定伤害并引发冲击波攻击敌人。`',
];
const KOREAN = ['#PVF_File\n[name]\n`격투가의 건틀릿`\n[explain]\n`공격력이 증가하고 속성 강화 효과가 10초 동안 지속됩니다.`', '#PVF_File\n[name]\n`금강쇄`\n[explain]\n`전방으로 짧게 뛰어올라 지면을 강하게 내리칩니다.`'];

function archiveOf(texts: string[], encoding: string, options: { given?: string } = {}) {
  const bytes = writeClassicArchive({ scripts: texts.map((text, i): [string, string] => [`item/${i}.stk`, text]), encoding });
  return openClassicArchiveBytes(bytes, `${encoding}.pvf`, options.given === undefined ? {} : { encoding: options.given });
}

describe('decodeText', () => {
  it('gives the codec’s text for ASCII bytes (short, long, NUL, every byte below 0x80) and for text with others', () => {
    const rng = seededRandom(31);
    const samples: Uint8Array[] = [new Uint8Array(0), Uint8Array.from({ length: 128 }, (_, i) => i), Uint8Array.from({ length: 5000 }, (_, i) => i % 128)];
    for (let k = 0; k < 300; k++) samples.push(Uint8Array.from({ length: Math.floor(rng() * 80) }, () => Math.floor(rng() * (k % 3 === 0 ? 256 : 128))));
    const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
    for (const encoding of ['cp936', 'cp949', 'cp950', 'utf-8', 'cp1252']) {
      for (const bytes of samples) {
        const expected = encoding === 'utf-8' ? utf8.decode(bytes) : iconv.decode(Buffer.from(bytes), encoding, { stripBOM: false });
        expect(decodeText(bytes, encoding)).toBe(expected);
      }
    }
  });
});

describe('encoding detection from stringtable.bin', () => {
  const cases: [string, string[]][] = [
    ['cp950', TRADITIONAL],
    ['cp936', SIMPLIFIED],
    ['cp949', KOREAN],
    ['utf-8', [...TRADITIONAL, ...SIMPLIFIED, ...KOREAN]],
  ];
  for (const [encoding, texts] of cases) {
    it(`${encoding} text is detected as ${encoding} and decodes exactly`, () => {
      const archive = archiveOf(texts, encoding);
      expect(archive.encoding.encoding).toBe(encoding);
      expect(archive.encoding.source).toBe('detected');
      expect(archive.encoding.failures[encoding]).toBe(0);
      expect(archive.warnings()).toEqual([]);
      const name = /`([^`]*)`/.exec(texts[0] as string)?.[1] as string;
      expect(archive.readText('item/0.stk').text).toContain(`[name]\n\t\`${name}\`\n`);
    });
  }

  it('the real simplified samples in GBK are detected as cp936', () => {
    const archive = openClassicArchiveBytes(writeClassicArchive({ scripts: sampleScripts(), encoding: 'cp936' }), 'gbk.pvf');
    expect(archive.encoding.encoding).toBe('cp936');
  });

  it('ASCII-only strings give the default cp950 (pvfUtility "TW")', () => {
    const archive = archiveOf(['#PVF_File\n[name]\n`Sword`'], 'utf-8');
    expect(archive.encoding).toMatchObject({ encoding: 'cp950', source: 'default', sampled: 0 });
  });

  it('a tie in decode failures is broken by common characters (GBK accepts Big5 and Korean bytes)', () => {
    // Every one of these GBK strings also decodes "cleanly" as Big5 (to nonsense): failures tie at 0.
    const gbk = ['攻击力增加', '物理伤害', '魔法防御', '效果持续时间', '金刚碎', '特级生命秘药', '体力', '精神', '智力', '等级', '恢复'];
    const simplified = detectEncoding(gbk.map((w) => encodeText(w, 'cp936')));
    expect(simplified.failures.cp950).toBe(0);
    expect(simplified.failures.cp936).toBe(0);
    expect(simplified.encoding).toBe('cp936');
    // Korean decodes without error as cp950, cp936 and cp949 alike.
    const korean = detectEncoding(['공격력 증가', '물리 공격력', '스킬 쿨타임', '마법 방어력', '지속 시간', '금강쇄'].map((w) => encodeText(w, 'cp949')));
    expect([korean.failures.cp950, korean.failures.cp936, korean.failures.cp949]).toEqual([0, 0, 0]);
    expect(korean.encoding).toBe('cp949');
    const traditional = detectEncoding(['攻擊力增加', '物理傷害', '技能冷卻時間', '魔法防禦', '效果持續時間'].map((w) => encodeText(w, 'cp950')));
    expect(traditional.encoding).toBe('cp950');
  });

  it('ties go to cp950, then cp936, cp949, utf-8', () => {
    expect(detectEncoding([]).encoding).toBe('cp950');
    // Valid Big5 and GBK both: a tie, cp950 wins.
    const both = Buffer.from('a4a4a4e5', 'hex');
    const result = detectEncoding([both]);
    expect(result.failures.cp950).toBe(0);
    expect(result.failures.cp936).toBe(0);
    expect(result.encoding).toBe('cp950');
  });
});

describe('encoding override', () => {
  it('a given encoding is used as-is and reported as given', () => {
    const archive = archiveOf(SIMPLIFIED, 'cp936', { given: 'GBK' });
    expect(archive.encoding.encoding).toBe('gbk');
    expect(archive.encoding.source).toBe('given');
    expect(archive.readText('item/0.stk').text).toContain('`特级生命秘药`');
  });

  it('a wrong override is kept but warned about, naming the better candidate', () => {
    const archive = archiveOf(SIMPLIFIED, 'cp936', { given: 'cp949' });
    expect(archive.encoding.encoding).toBe('cp949');
    const warnings = archive.warnings().join('\n');
    expect(warnings).toMatch(/of \d+ sampled non-ASCII strings of stringtable\.bin do not decode in cp949 \(given\); cp936 fails on 0: pass --encoding cp936/);
    expect(archive.readText('item/0.stk').text).not.toContain('特级生命秘药');
  });

  it('names normalise; unknown names are refused', () => {
    expect(normalizeEncodingName('UTF8')).toBe('utf-8');
    expect(normalizeEncodingName(' CP950 ')).toBe('cp950');
    expect(normalizeEncodingName('gb18030')).toBe('gb18030');
    expect(() => normalizeEncodingName('')).toThrow(/unknown text encoding/);
  });
});

describe('names and text files', () => {
  it('names are CP949 whatever the text encoding; lookups fold case', () => {
    const archive = openClassicArchiveBytes(
      writeClassicArchive({ files: { 'Korean/무기.TXT': 'x', 'ASCII/Upper.Equ': 'y' }, encoding: 'cp950', keepCase: true }),
      'names.pvf',
    );
    expect(archive.list('korean').map((n) => n.path)).toEqual(['Korean/무기.TXT']);
    expect(archive.resolve('KOREAN/무기.txt')?.path).toBe('Korean/무기.TXT');
    expect(archive.resolve('ascii\\UPPER.equ')?.path).toBe('ASCII/Upper.Equ');
  });

  it('.str and other text files decode with the archive encoding; a BOM decides over it', () => {
    const archive = openClassicArchiveBytes(
      buildClassicArchive([
        { path: 'stringtable.bin', data: writeTable(['測試字串'], 'cp950') },
        { path: 'strings/a.str', data: encodeText('name_1>長劍\r\nname_2>弓\r\n', 'cp950') },
        { path: 'text/utf8.txt', data: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('中文 UTF-8\r\n')]) },
        { path: 'text/utf16.txt', data: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('한국어\r\n', 'utf16le')]) },
      ]),
      'text.pvf',
    );
    expect(archive.encoding.encoding).toBe('cp950');
    const str = archive.readText('strings/a.str');
    expect(str).toMatchObject({ text: 'name_1>長劍\nname_2>弓\n', isScript: false, source: 'text' });
    expect(archive.readText('text/utf8.txt').text).toBe('中文 UTF-8\n');
    expect(archive.readText('text/utf16.txt').text).toBe('한국어\n');
  });

  it('strings: trailing NULs trimmed; CRLF inside strings becomes \\n in the canonical text', () => {
    const script = Buffer.from('b0d0070000000007010000000', 'hex');
    const table = writeTable(['two\r\nlines\u0000\u0000', 'x'], 'utf-8');
    const archive = openClassicArchiveBytes(buildClassicArchive([{ path: 'a.equ', data: script }, { path: 'stringtable.bin', data: table }]), 's.pvf');
    expect(archive.readText('a.equ').text).toBe('#PVF_File\n\n`two\nlines`\n`x`');
  });
});

function writeTable(strings: string[], encoding: string): Buffer {
  const encoded = strings.map((s) => Buffer.from(encodeText(s, encoding)));
  const head = Buffer.alloc(4 + 4 * (strings.length + 1));
  head.writeUInt32LE(strings.length, 0);
  let offset = 4 * strings.length + 4;
  encoded.forEach((e, i) => {
    head.writeUInt32LE(offset, 4 + 4 * i);
    offset += e.length;
  });
  head.writeUInt32LE(offset, 4 + 4 * strings.length);
  return Buffer.concat([head, ...encoded]);
}
