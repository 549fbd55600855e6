/**
 * A reference reader of classic (pvfUtility-format) Script.pvf archives for `npm run bench:archive`:
 * the plain way to read one, written from the classic format's description (the original design's
 * pvf-classic-format §2–§4; runtime/classic/README.md) with none of pvfdoc's code, so the benchmark
 * can say how far pvfdoc's reader is from it.
 *
 * The whole file is read into memory; the header and the tree are parsed, the tree decrypted, every
 * name put in a Map; `stringtable.bin` is decrypted and its offsets read. A read decrypts the file's
 * block and decompiles the tokens into `#PVF_File` text (sections on their own lines, values
 * tab-separated below them, strings quoted, floats as the shortest float32 decimal, links as
 * `<id::key``>`). It checks no CRC, looks up no `.str` text, pairs no sections and hashes nothing:
 * less work than pvfdoc does, which is the point of a floor.
 */
import { readFileSync } from 'node:fs';

const KEY = 0x81a79011;

/** ROR32(w ^ KEY ^ crc, 6) on each little-endian word of bytes[start, start + length) (§2.2c), into a new array. */
function decrypt(bytes, start, length, crc) {
  const out = new Uint8Array(Math.ceil(length / 4) * 4);
  out.set(bytes.subarray(start, start + out.length));
  const view = new DataView(out.buffer);
  const key = (KEY ^ crc) >>> 0;
  for (let i = 0; i < out.length; i += 4) {
    const w = (view.getUint32(i, true) ^ key) >>> 0;
    view.setUint32(i, ((w >>> 6) | (w << 26)) >>> 0, true);
  }
  return out;
}

/** Opens an archive file; `encoding` is a WHATWG label for the script strings (gbk, big5, euc-kr, utf-8). */
export function openReference(file, encoding) {
  const bytes = readFileSync(file);
  const head = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const guidLength = head.getInt32(0, true);
  const treeLength = head.getInt32(8 + guidLength, true);
  const treeCrc = head.getUint32(12 + guidLength, true);
  const fileCount = head.getInt32(16 + guidLength, true);
  const treeStart = 20 + guidLength;
  const dataBase = treeStart + treeLength;
  const tree = decrypt(bytes, treeStart, treeLength, treeCrc);
  const tv = new DataView(tree.buffer);
  const latin1 = new TextDecoder('latin1');
  const files = new Map();
  let pos = 0;
  for (let i = 0; i < fileCount; i++) {
    const nameLength = tv.getInt32(pos + 4, true);
    const name = latin1.decode(tree.subarray(pos + 8, pos + 8 + nameLength)).toLowerCase();
    const at = pos + 8 + nameLength;
    if (!files.has(name)) files.set(name, { length: tv.getInt32(at, true), crc: tv.getUint32(at + 4, true), offset: tv.getInt32(at + 8, true) });
    pos = at + 12;
  }
  const fileBytes = (name) => {
    const entry = files.get(name.toLowerCase());
    if (!entry) throw new Error(`${name} is not in ${file}`);
    return decrypt(bytes, dataBase + entry.offset, entry.length, entry.crc).subarray(0, entry.length);
  };

  const table = fileBytes('stringtable.bin');
  const sv = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const stringCount = sv.getUint32(0, true);
  const decoder = new TextDecoder(encoding);
  const strings = new Array(stringCount);
  const string = (i) => {
    let s = strings[i];
    if (s === undefined) {
      let end = sv.getUint32(8 + 4 * i, true) + 4;
      const start = sv.getUint32(4 + 4 * i, true) + 4;
      while (end > start && table[end - 1] === 0) end--;
      s = strings[i] = decoder.decode(table.subarray(start, end));
    }
    return s;
  };

  const f32 = new DataView(new ArrayBuffer(4));
  const float = (bits) => {
    f32.setInt32(0, bits, true);
    const x = f32.getFloat32(0, true);
    if (!Number.isFinite(x) || Object.is(x, -0)) return `{4=${bits}}`;
    for (let p = 1; p < 9; p++) {
      const text = x.toPrecision(p);
      if (Math.fround(Number(text)) !== x) continue;
      const shortest = String(Number(text));
      return /[.e]/.test(shortest) ? shortest : `${shortest}.0`;
    }
    return String(x);
  };

  /** `#PVF_File` text of a compiled script (§4.2–4.4). */
  const decompile = (name) => {
    const data = fileBytes(name);
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const out = ['#PVF_File'];
    let line = '';
    const flush = () => {
      if (line !== '') out.push(line);
      line = '';
    };
    for (let at = 2; at + 5 <= data.length; at += 5) {
      const type = data[at];
      const value = dv.getInt32(at + 1, true);
      let text;
      if (type === 2) text = String(value);
      else if (type === 3) text = `{3=${value}}`;
      else if (type === 4) text = float(value);
      else if (type === 5) {
        flush();
        out.push(string(value));
        continue;
      } else if (type === 7) text = `\`${string(value)}\``;
      else if (type === 6 || type === 8) text = `{${type}=\`${string(value)}\`}`;
      else if (type === 9 && at + 10 <= data.length && data[at + 5] === 10) {
        text = `<${value}::${string(dv.getInt32(at + 6, true))}\`\`>`;
        at += 5;
      } else continue;
      line = line === '' ? `\t${text}` : `${line}\t${text}`;
    }
    flush();
    return out.join('\n');
  };

  return { fileCount: files.size, decompile };
}
