/**
 * Writes binary `.ani` bytes (pvf-classic-format §4.9) from a plain description, for tests of
 * runtime/classic/binary-ani.ts. Items are (tag, values) with the value widths of the layout.
 */

/** An item: its tag and its values, in stored order (a sound or image path as a string). */
export type AniItem =
  | { tag: 'LOOP' | 'SHADOW' | 'INTERPOLATION'; value: number }
  | { tag: 'COORD' | 'OPERATION' | 'DAMAGE TYPE' | 'FLIP TYPE'; value: number }
  | { tag: 'IMAGE RATE'; x: number; y: number }
  | { tag: 'IMAGE ROTATE'; value: number }
  | { tag: 'RGBA'; rgba: [number, number, number, number] }
  | { tag: 'GRAPHIC EFFECT'; effect: number; extra?: number[] }
  | { tag: 'DELAY' | 'SET FLAG' | 'LOOP END'; value: number }
  | { tag: 'PLAY SOUND'; sound: string }
  | { tag: 'PRELOAD' | 'LOOP START' }
  | { tag: 'CLIP'; clip: [number, number, number, number] }
  | { tag: 'SPECTRUM'; first: number; term: number; lifeTime: number; color: [number, number, number, number]; effect: number };

export interface AniFrame {
  boxes: { kind: 'damage' | 'attack'; values: [number, number, number, number, number, number] }[];
  /** Index into `images` and sprite number, or null for no image. */
  image: { index: number; sprite: number } | null;
  pos: [number, number];
  items: AniItem[];
}

export interface AniSpec {
  images: string[];
  overall: AniItem[];
  frames: AniFrame[];
}

const TAGS: Record<AniItem['tag'], number> = {
  LOOP: 0,
  SHADOW: 1,
  COORD: 3,
  'IMAGE RATE': 7,
  'IMAGE ROTATE': 8,
  RGBA: 9,
  INTERPOLATION: 10,
  'GRAPHIC EFFECT': 11,
  DELAY: 12,
  'DAMAGE TYPE': 13,
  'PLAY SOUND': 16,
  PRELOAD: 17,
  SPECTRUM: 18,
  'SET FLAG': 23,
  'FLIP TYPE': 24,
  'LOOP START': 25,
  'LOOP END': 26,
  CLIP: 27,
  OPERATION: 28,
};

class Bytes {
  private readonly parts: number[] = [];
  u8(v: number): this {
    this.parts.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v).u8(v >> 8);
  }
  i32(v: number): this {
    return this.u16(v & 0xffff).u16((v >> 16) & 0xffff);
  }
  f32(v: number): this {
    const view = new DataView(new ArrayBuffer(4));
    view.setFloat32(0, v, true);
    return this.i32(view.getInt32(0, true));
  }
  text(s: string): this {
    const bytes = Buffer.from(s, 'latin1');
    this.i32(bytes.length);
    for (const b of bytes) this.u8(b);
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

function item(out: Bytes, it: AniItem): void {
  out.u16(TAGS[it.tag]);
  switch (it.tag) {
    case 'LOOP':
    case 'SHADOW':
    case 'INTERPOLATION':
      out.u8(it.value);
      return;
    case 'COORD':
    case 'OPERATION':
    case 'DAMAGE TYPE':
    case 'FLIP TYPE':
      out.u16(it.value);
      return;
    case 'IMAGE RATE':
      out.f32(it.x).f32(it.y);
      return;
    case 'IMAGE ROTATE':
      out.f32(it.value);
      return;
    case 'RGBA':
      for (const c of it.rgba) out.u8(c);
      return;
    case 'GRAPHIC EFFECT':
      out.u16(it.effect);
      if (it.effect === 5) for (const c of it.extra ?? [0, 0, 0]) out.u8(c);
      if (it.effect === 6) for (const c of it.extra ?? [0, 0]) out.u16(c);
      return;
    case 'DELAY':
    case 'SET FLAG':
    case 'LOOP END':
      out.i32(it.value);
      return;
    case 'PLAY SOUND':
      out.text(it.sound);
      return;
    case 'PRELOAD':
    case 'LOOP START':
      return;
    case 'CLIP':
      for (const c of it.clip) out.u16(c);
      return;
    case 'SPECTRUM':
      out.u8(it.first).i32(it.term).i32(it.lifeTime);
      for (const c of it.color) out.u8(c);
      out.u16(it.effect);
      return;
  }
}

/** The bytes of a binary `.ani`. */
export function encodeBinaryAni(spec: AniSpec): Uint8Array {
  const out = new Bytes();
  out.u16(spec.frames.length).u16(spec.images.length);
  for (const image of spec.images) out.text(image);
  out.u16(spec.overall.length);
  for (const it of spec.overall) item(out, it);
  for (const frame of spec.frames) {
    out.u16(frame.boxes.length);
    for (const box of frame.boxes) {
      out.u16(box.kind === 'damage' ? 14 : 15);
      for (const v of box.values) out.i32(v);
    }
    if (frame.image === null) out.u16(0xffff);
    else out.u16(frame.image.index).u16(frame.image.sprite);
    out.i32(frame.pos[0]).i32(frame.pos[1]);
    out.u16(frame.items.length);
    for (const it of frame.items) item(out, it);
  }
  return out.done();
}
