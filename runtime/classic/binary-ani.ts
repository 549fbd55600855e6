/**
 * Binary `.ani` files (pvf-classic-format §4.9) as `#PVF_File` text. Most animations of a real
 * archive are stored this way rather than as compiled scripts; read as text they are noise, so they
 * are rendered the way pvfUtility renders them (its binary-ANI decompiler is what the text `.ani`
 * files of the field were made with): overall items, `[FRAME MAX]`, then per frame `[IMAGE]` (path
 * and sprite, or an empty path and 0), `[IMAGE POS]`, the frame's items in stored order and its boxes
 * last. Enumerated values print as their names (`LINEARDODGE`, `SUPERARMOR`, `HORIZON`), an unknown
 * one as its number; floats as the script dialect prints them (formatScriptFloat, `{4=bits}` when
 * only that is exact).
 *
 * Little-endian layout: u16 frame count, u16 image count and that many (i32 length, path bytes);
 * u16 overall item count and the items; per frame a u16 box count and boxes (u16 tag 14 damage / 15
 * attack, six i32), an i16 image index (−1 none; else a u16 sprite), two i32 (position), a u16 item
 * count and the items. Anything else (an unknown tag, an image index out of range, bytes missing or
 * left over) is a problem, and the file is then read as it was before, as undecoded text.
 */
import { textRevisionOf } from '../script/decode-text.js';
import { normalizeText } from '../script/normalize-text.js';
import { formatScriptFloat } from '../script/script-float.js';
import { isCompiledScript } from './script-tokens.js';

export type BinaryAniResult = { text: string } | { problem: string };

const EFFECTS = ['NONE', 'DODGE', 'LINEARDODGE', 'DARK', 'XOR', 'MONOCHROME', 'SPACEDISTORT'];
const MONOCHROME = 5;
const SPACEDISTORT = 6;
const DAMAGE_TYPES = ['NORMAL', 'SUPERARMOR', 'UNBREAKABLE'];
const FLIP_TYPES = ['', 'HORIZON', 'VERTICAL', 'ALL'];

const enumName = (names: readonly string[], value: number): string => {
  const name = names[value];
  return name === undefined || name === '' ? String(value) : `\`${name}\``;
};

/** Whether a file is an `.ani` that is neither a compiled script nor text (text never holds a NUL byte). */
export function isBinaryAni(path: string, bytes: Uint8Array): boolean {
  return path.toLowerCase().endsWith('.ani') && !isCompiledScript(bytes) && bytes.includes(0);
}

/**
 * The canonical text and textRevision of a file when it is a binary `.ani` that decodes, else null:
 * what archive and folder workspaces read for such a file.
 */
export function binaryAniText(path: string, bytes: Uint8Array, decode: (bytes: Uint8Array) => string): { text: string; textRevision: string } | null {
  if (!isBinaryAni(path, bytes)) return null;
  const ani = decompileBinaryAni(bytes, decode);
  if (!('text' in ani)) return null;
  const text = normalizeText(ani.text);
  return { text, textRevision: textRevisionOf(text) };
}

/** Reads little-endian values; running out of bytes is an AniProblem. */
class AniReader {
  private at = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number): number {
    const at = this.at;
    if (at + n > this.bytes.length) throw new AniProblem(`${n} more bytes needed at byte ${at} of ${this.bytes.length}`);
    this.at = at + n;
    return at;
  }

  u8 = (): number => this.bytes[this.need(1)] as number;
  u16 = (): number => this.view.getUint16(this.need(2), true);
  i16 = (): number => this.view.getInt16(this.need(2), true);
  i32 = (): number => this.view.getInt32(this.need(4), true);
  f32 = (): string => {
    const bits = this.view.getInt32(this.need(4), true);
    return formatScriptFloat(bits) ?? `{4=${bits}}`;
  };

  bytesOf(length: number): Uint8Array {
    if (length < 0) throw new AniProblem(`negative string length ${length} at byte ${this.at - 4}`);
    const at = this.need(length);
    return this.bytes.subarray(at, at + length);
  }

  get done(): boolean {
    return this.at === this.bytes.length;
  }

  get position(): number {
    return this.at;
  }
}

class AniProblem extends Error {}

/** A string as the dialect writes it: between backticks, a backtick inside doubled. */
const quoted = (s: string): string => `\`${s.replaceAll('`', '``')}\``;

/** The text of a binary `.ani`, or why its bytes are not one. `decode` turns a path's bytes into text. */
export function decompileBinaryAni(bytes: Uint8Array, decode: (bytes: Uint8Array) => string): BinaryAniResult {
  const r = new AniReader(bytes);
  const out: string[] = ['#PVF_File'];
  const line = (depth: number, text: string): void => {
    out.push('\t'.repeat(depth) + text);
  };
  try {
    const frameCount = r.u16();
    const images: string[] = [];
    for (let i = r.u16(); i > 0; i--) images.push(decode(r.bytesOf(r.i32())));

    for (let n = r.u16(); n > 0; n--) {
      const tag = r.u16();
      switch (tag) {
        case 0:
        case 1:
          line(0, tag === 0 ? '[LOOP]' : '[SHADOW]');
          line(1, String(r.u8()));
          break;
        case 3:
        case 28:
          line(0, tag === 3 ? '[COORD]' : '[OPERATION]');
          line(1, String(r.u16()));
          break;
        case 18: {
          line(0, '[SPECTRUM]');
          line(1, String(r.u8()));
          line(1, '[SPECTRUM TERM]');
          line(2, String(r.i32()));
          line(1, '[SPECTRUM LIFE TIME]');
          line(2, String(r.i32()));
          line(1, '[SPECTRUM COLOR]');
          line(2, [r.u8(), r.u8(), r.u8(), r.u8()].join('\t'));
          line(1, '[SPECTRUM EFFECT]');
          line(2, enumName(EFFECTS, r.u16()));
          break;
        }
        default:
          throw new AniProblem(`unknown overall item ${tag} at byte ${r.position - 2}`);
      }
    }

    line(0, '[FRAME MAX]');
    line(1, String(frameCount));
    for (let frame = 0; frame < frameCount; frame++) {
      out.push('', `[FRAME${String(frame).padStart(3, '0')}]`);
      const boxes: string[] = [];
      for (let n = r.u16(); n > 0; n--) {
        const tag = r.u16();
        if (tag !== 14 && tag !== 15) throw new AniProblem(`unknown box ${tag} at byte ${r.position - 2} (frame ${frame})`);
        boxes.push(`\t${tag === 14 ? '[DAMAGE BOX]' : '[ATTACK BOX]'}`, `\t${[r.i32(), r.i32(), r.i32(), r.i32(), r.i32(), r.i32()].join('\t')}`);
      }
      line(1, '[IMAGE]');
      const image = r.i16();
      if (image >= 0) {
        const path = images[image];
        if (path === undefined) throw new AniProblem(`frame ${frame} uses image ${image}, but the file lists ${images.length}`);
        line(2, quoted(path));
        line(2, String(r.u16()));
      } else {
        line(2, '``');
        line(2, '0');
      }
      line(1, '[IMAGE POS]');
      line(2, `${r.i32()}\t${r.i32()}`);
      for (let n = r.u16(); n > 0; n--) frameItem(r, line, decode, frame);
      out.push(...boxes);
    }
    if (!r.done) throw new AniProblem(`${bytes.length - r.position} bytes left after the last frame`);
  } catch (error) {
    if (error instanceof AniProblem) return { problem: error.message };
    throw error;
  }
  return { text: out.join('\n') + '\n' };
}

function frameItem(r: AniReader, line: (depth: number, text: string) => void, decode: (bytes: Uint8Array) => string, frame: number): void {
  const tag = r.u16();
  const item = (name: string, ...values: (string | number)[]): void => {
    line(1, `[${name}]`);
    if (values.length > 0) line(2, values.join('\t'));
  };
  switch (tag) {
    case 0:
      return item('LOOP', r.u8());
    case 1:
      return item('SHADOW', r.u8());
    case 10:
      return item('INTERPOLATION', r.u8());
    case 3:
      return item('COORD', r.u16());
    case 17:
      return item('PRELOAD', 1);
    case 7:
      return item('IMAGE RATE', r.f32(), r.f32());
    case 8:
      return item('IMAGE ROTATE', r.f32());
    case 9:
      return item('RGBA', r.u8(), r.u8(), r.u8(), r.u8());
    case 11: {
      const effect = r.u16();
      item('GRAPHIC EFFECT', enumName(EFFECTS, effect));
      if (effect === MONOCHROME) line(2, [r.u8(), r.u8(), r.u8()].join('\t'));
      else if (effect === SPACEDISTORT) line(2, `${r.i16()}\t${r.i16()}`);
      return;
    }
    case 12:
      return item('DELAY', r.i32());
    case 13:
      return item('DAMAGE TYPE', enumName(DAMAGE_TYPES, r.u16()));
    case 16:
      return item('PLAY SOUND', quoted(decode(r.bytesOf(r.i32()))));
    case 23:
      return item('SET FLAG', r.i32());
    case 24:
      return item('FLIP TYPE', enumName(FLIP_TYPES, r.u16()));
    case 25:
      return item('LOOP START');
    case 26:
      return item('LOOP END', r.i32());
    case 27:
      return item('CLIP', r.i16(), r.i16(), r.i16(), r.i16());
    default:
      throw new AniProblem(`unknown frame item ${tag} at byte ${r.position - 2} (frame ${frame})`);
  }
}
