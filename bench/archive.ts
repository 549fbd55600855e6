/**
 * `npm run bench:archive`: a generated classic Script.pvf of 200 000 files (about 300 MB) opened as a
 * workspace: open time, first-file latency, random read+decompile latency (p50/p99), resident memory
 * after the open and after the reads. A benchmark, not a test: it asserts nothing about time. See
 * docs/benchmarks.md, "Classic archives".
 *
 * The archive is written into a temp folder with the test writer's streaming mode
 * (test/support/write-classic-archive.ts, streamClassicArchive: blocks go to disk one by one, memory
 * stays bounded) and removed at the end (--keep keeps it). Contents are pseudo-random from a fixed seed
 * (mulberry32): a 90US-like folder layout (equipment by job and slot, stackables, skills by job,
 * monsters, passive objects, attack infos, maps, AI, dungeons, NPCs, pets, etc), script sizes drawn
 * from a log-normal per file type, a unique name per item, shared explain texts and job/type labels,
 * floats and ints in data rows, some real samples of ../shared/fixtures/samples, `.lst` registries
 * for every type (tens of thousands of rows), `n_string.lst` with `.str` tables, string links in some
 * names, and binary `.ani` files.
 *
 * The measurements run in a fresh Node process, so the generator's memory and JIT state do not count,
 * and from this file bundled with esbuild and run by plain `node` (no tsx loader), as `pvfdoc serve`
 * runs from dist/pvfdoc.mjs: the loader alone holds tens of MiB, which would drown the reader's
 * memory. It opens the archive with createArchiveWorkspace(classicDriver) (what `serve` does), reads
 * one random script, then reads and decompiles `--reads` random scripts, each through
 * `await workspace.view()` as every request does (so the change check counts), then reads the same
 * files' bytes only (read + decrypt + CRC, no decompile). Then, in the same process: `readFileSync`
 * of the whole archive and warm opens, alternately, WARM_PAIRS times each, so the open is compared with
 * reading the file in one run; and the reference reader (bench/classic-reference-reader.mjs: plain JS,
 * the whole file in memory, no CRC) opening the file and decompiling the same scripts. The ratios
 * printed at the end are of figures from that one process. The OS page cache holds the file (it was
 * just written): the figures are for a warm cache. A second measuring process does the same with
 * `--v8-pool-size=0` (V8's helper threads sized from the cores, not Node's fixed four): on a machine of
 * few cores those helpers' JIT compiles take the main thread's core during the first thousands of
 * reads, and the two runs side by side show how much of the read tail that is.
 *
 * Options: --files <n> (default 200000), --reads <n> (2000), --seed <n>, --out <file> (results JSON;
 * default a temp file), --keep (keep the archive and print its path), --archive <file> (measure an
 * archive kept from an earlier run with the same --files and --seed instead of generating one).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeText } from '../runtime/classic/text-encoding.js';
import { classicDriver } from '../runtime/workspace/archive-drivers.js';
import { createArchiveWorkspace } from '../runtime/workspace/archive-workspace.js';
import { seededRandom } from '../test/support/random.js';
import { streamClassicArchive } from '../test/support/write-classic-archive.js';
import { openReference } from './classic-reference-reader.mjs';
import { bundleForNode, runJsonChild } from './fresh-process.js';
import { exposeGc, fmtBytes, fmtMs, median, now, percentile, table } from './stats.js';

const SELF = fileURLToPath(import.meta.url);
/** Text encoding of the generated archive (a simplified-Chinese archive, as most CN private-server packs). */
const ENCODING = 'cp936';
/** The same encoding as a WHATWG label, for the reference reader's TextDecoder. */
const REFERENCE_ENCODING = 'gbk';
const SAMPLES = fileURLToPath(new URL('../../shared/fixtures/samples/', import.meta.url));

const { values: args } = parseArgs({
  options: {
    files: { type: 'string', default: '200000' },
    reads: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '20240612' },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
    archive: { type: 'string' },
    measure: { type: 'string' },
  },
});

const positiveInt = (name: string, text: string | undefined): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(text)}`);
  return n;
};

// --- Pseudo-random helpers ---

type Rng = () => number;

const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;

/** Log-normal with the given median and spread (sigma of the log), clamped. */
function logNormal(rng: Rng, medianValue: number, sigma: number, min: number, max: number): number {
  const u = Math.max(rng(), 1e-12);
  const v = rng();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.min(max, Math.max(min, Math.round(medianValue * Math.exp(sigma * z))));
}

// --- The generated archive: layout and contents ---

const JOBS = ['swordman', 'fighter', 'gunner', 'mage', 'priest', 'thief', 'knight', 'demoniclancer', 'gunblader', 'atswordman', 'atfighter', 'atgunner', 'atmage', 'atpriest', 'creatormage'];
const JOB_TAGS = ['[swordman]', '[fighter]', '[gunner]', '[mage]', '[priest]', '[thief]', '[knight]', '[demonic lancer]', '[gunblader]', '[at swordman]', '[at fighter]', '[at gunner]', '[at mage]', '[at priest]', '[creator mage]', '[all]'];
const EQUIP_SLOTS = ['weapon', 'coat', 'pants', 'shoes', 'belt', 'shoulder', 'amulet', 'ring', 'wrist', 'support', 'magicstone', 'title', 'avatar/cap', 'avatar/hair', 'avatar/face', 'avatar/coat', 'avatar/pants', 'avatar/shoes', 'avatar/skin'];
const STACK_KINDS = ['cash', 'potion', 'material', 'quest', 'recipe', 'booster', 'throw', 'card', 'event', 'dungeon', 'legacy'];
const AREAS = ['hendonmyre', 'westcoast', 'stormpass', 'bahn', 'noslek', 'grandis', 'elvengard', 'darkcity', 'skytower', 'sharan', 'iceland', 'hutton', 'ironwood', 'tianwei', 'pvp', 'event'];
const WORDS = ['攻击', '防御', '力量', '智力', '体力', '精神', '暴击', '命中', '回避', '移动速度', '攻击速度', '施放速度', '火属性', '冰属性', '光属性', '暗属性', '伤害', '减少', '增加', '持续', '秒', '技能', '冷却', '时间', '范围', 'MP', 'HP', '恢复', '无色', '晶块'];
const IMAGES = ['Item/stackable/consumption.img', 'Item/IconMark.img', 'Item/FieldImage.img', 'Item/weapon/sword.img', 'Item/avatar/coat.img', 'Monster/goblin.img', 'PassiveObject/effect.img', 'Map/tile.img'];

interface FileType {
  ext: string;
  /** Share of the generated files. */
  share: number;
  /** Median and log-spread of the token count. */
  tokens: [median: number, sigma: number];
  /** Archive folder for file n (below its type's root). */
  folder: (rng: Rng) => string;
  /** Registry file of the type (rows id → path relative to the registry's folder), if any. */
  list?: string;
  /** Sections it opens with (name, value kind). */
  head: readonly string[];
  /** Sections of repeated numeric rows used to reach the size. */
  bulk: readonly string[];
}

const TYPES: FileType[] = [
  { ext: '.equ', share: 0.33, tokens: [165, 0.7], folder: (r) => `equipment/character/${pick(r, JOBS)}/${pick(r, EQUIP_SLOTS)}`, list: 'equipment/equipment.lst', head: ['name', 'explain', 'grade', 'rarity', 'usable job', 'attach type', 'minimum level', 'price', 'icon'], bulk: ['skill data up', 'equipment physical attack', 'layer variation', 'stat', 'if', 'elemental property'] },
  { ext: '.stk', share: 0.15, tokens: [75, 0.6], folder: (r) => `stackable/${pick(r, STACK_KINDS)}`, list: 'stackable/stackable.lst', head: ['name', 'explain', 'grade', 'rarity', 'stack limit', 'icon', 'stackable type'], bulk: ['booster select category', 'avatar', 'stat change', 'effect maintenance'] },
  { ext: '.skl', share: 0.04, tokens: [580, 0.8], folder: (r) => `skill/${pick(r, JOBS)}`, head: ['name', 'explain', 'type', 'required level', 'maximum level', 'command'], bulk: ['level info', 'level property', 'dungeon', 'pvp', 'static data', 'skill preloading'] },
  { ext: '.mob', share: 0.08, tokens: [350, 0.7], folder: (r) => `monster/${pick(r, AREAS)}`, list: 'monster/monster.lst', head: ['name', 'level', 'category', 'ability category', 'hp max'], bulk: ['attack info', 'ability', 'ai pattern', 'motion', 'etc motion', 'drop'] },
  { ext: '.obj', share: 0.16, tokens: [190, 0.8], folder: (r) => `passiveobject/${pick(r, AREAS)}`, list: 'passiveobject/passiveobject.lst', head: ['name', 'object destroy condition', 'layer'], bulk: ['basic action', 'attack info', 'etc motion', 'piercing power'] },
  { ext: '.atk', share: 0.07, tokens: [60, 0.5], folder: (r) => `character/${pick(r, JOBS)}/attackinfo`, head: ['damage reaction', 'attack direction', 'hit wav'], bulk: ['damage bonus', 'push aside', 'lift up'] },
  { ext: '.map', share: 0.06, tokens: [410, 0.7], folder: (r) => `map/${pick(r, AREAS)}`, list: 'map/map.lst', head: ['name', 'background pos', 'player number'], bulk: ['tile', 'monster', 'passive object', 'special passive object', 'animation'] },
  { ext: '.aic', share: 0.02, tokens: [500, 0.6], folder: (r) => `aicharacter/${pick(r, AREAS)}`, list: 'aicharacter/aicharacter.lst', head: ['name', 'level', 'job'], bulk: ['skill', 'equipment', 'ai pattern'] },
  { ext: '.dgn', share: 0.005, tokens: [1250, 0.5], folder: () => 'dungeon', list: 'dungeon/dungeon.lst', head: ['name', 'minimum required level', 'basis level'], bulk: ['map specification', 'monster', 'special map', 'reward'] },
  { ext: '.npc', share: 0.005, tokens: [250, 0.5], folder: () => 'npc', list: 'npc/npc.lst', head: ['name', 'field name', 'npc type'], bulk: ['item shop', 'quest', 'role'] },
  { ext: '.cre', share: 0.01, tokens: [250, 0.6], folder: () => 'creature', list: 'creature/creature.lst', head: ['name', 'explain', 'grade'], bulk: ['skill', 'stat', 'level up'] },
  { ext: '.etc', share: 0.02, tokens: [330, 1.0], folder: (r) => `etc/${pick(r, ['itemdropinfo', 'randomoption', 'reward', 'rarecash'])}`, head: ['name'], bulk: ['item', 'probability', 'info'] },
  { ext: '.ani', share: 0.045, tokens: [300, 0.7], folder: (r) => `character/${pick(r, JOBS)}/animation`, head: [], bulk: [] },
];

/** Section bodies of the head sections: a function of the file's rng and serial. */
function headValue(section: string, rng: Rng, serial: number, names: NameSource): string {
  switch (section) {
    case 'name':
      return names.name(serial);
    case 'explain':
      return `\`${names.explain(rng)}\``;
    case 'usable job':
      return `\`${pick(rng, JOB_TAGS)}\`\n[/usable job]`;
    case 'attach type':
      return `\`${pick(rng, ['[free]', '[trade]', '[sealing]', '[account]'])}\``;
    case 'stackable type':
      return `\`${pick(rng, ['[waste]', '[material]', '[booster selection]', '[quest]'])}\`\t${int(rng, 0, 9)}`;
    case 'type':
      return `\`${pick(rng, ['[active]', '[passive]'])}\``;
    case 'icon':
      return `\`${pick(rng, IMAGES)}\`\t${int(rng, 0, 999)}`;
    case 'command':
      return '{6=`(RIGHT)`}\n{8=`,`}\n{6=`(SKILL)`}\n[/command]';
    case 'hit wav':
      return `\`${pick(rng, ['R_HIT', 'HIT_SWORD', 'BLUNT_HIT', 'MAGIC_HIT'])}\``;
    case 'rarity':
      return String(int(rng, 0, 6));
    default:
      return String(int(rng, 0, 2000));
  }
}

/** Names: a unique string per file (one stringtable entry each); every fourth a string link into table 3. */
class NameSource {
  private readonly explains: string[];

  constructor(rng: Rng) {
    this.explains = Array.from({ length: 800 }, () => Array.from({ length: int(rng, 4, 30) }, () => pick(rng, WORDS)).join(int(rng, 0, 3) === 0 ? '\n' : ' '));
  }

  static isLink(serial: number): boolean {
    return serial % 4 === 1;
  }

  /** The name of file `serial` (a function of the serial alone, so the `.str` table can be written at any time). */
  static text(serial: number): string {
    const r = seededRandom(serial * 31 + 7);
    return `${pick(r, WORDS)}${pick(r, WORDS)}之${pick(r, ['剑', '拳套', '手炮', '法杖', '十字架', '匕首', '长枪', '药剂', '宝珠'])} ${serial}`;
  }

  name(serial: number): string {
    return NameSource.isLink(serial) ? `<3::name_${serial}\`\`>` : `\`${NameSource.text(serial)}\``;
  }

  explain(rng: Rng): string {
    return pick(rng, this.explains);
  }
}

/** A bulk row: 2–8 numbers, some floats. */
function numericRow(rng: Rng, width: number): string {
  const out: string[] = [];
  for (let i = 0; i < width; i++) {
    const r = rng();
    out.push(r < 0.15 ? (rng() * 200 - 100).toFixed(int(rng, 1, 3)) : r < 0.2 ? String(-int(rng, 1, 100)) : String(int(rng, 0, r < 0.6 ? 100 : 100000)));
  }
  return out.join('\t');
}

interface Plan {
  /** Archive paths in generation (declaration) order. */
  paths: string[];
  /** Per path: index into TYPES, or -1 for registries and tables. */
  kinds: Int16Array;
  /** Token budget per generated script. */
  budgets: Int32Array;
  /** Registry path → rows (id, path relative to the registry's folder). */
  lists: Map<string, string[]>;
  /** Real sample texts used for some files. */
  samples: Map<string, string>;
}

/** Paths, types and sizes of every file (deterministic from the seed). */
function planArchive(total: number, seed: number): Plan {
  const rng = seededRandom(seed);
  const lists = new Map<string, string[]>();
  const samples = new Map<string, string>();
  const paths: string[] = [];
  const kinds: number[] = [];
  const budgets: number[] = [];
  const fixed = 30; // 24 registries, n_string.lst, 4 .str tables, stringtable.bin
  const generated = Math.max(1, total - fixed);
  const cumulative: number[] = [];
  let acc = 0;
  for (const t of TYPES) cumulative.push((acc += t.share));
  const sampleTexts = existsSync(SAMPLES) ? readSamples() : [];
  const skillLists = new Set<string>();
  for (let n = 0; n < generated; n++) {
    const x = rng() * acc;
    let k = cumulative.findIndex((c) => x < c);
    if (k < 0) k = TYPES.length - 1;
    const type = TYPES[k] as FileType;
    const folder = type.folder(rng);
    const file = `${folder}/${type.ext.slice(1)}_${n.toString(36)}${type.ext}`;
    paths.push(file);
    kinds.push(k);
    budgets.push(logNormal(rng, type.tokens[0], type.tokens[1], 8, 60_000));
    const id = String(100000 + n);
    const listPath = type.list ?? (type.ext === '.skl' ? `skill/${folder.split('/')[1] ?? 'common'}skill.lst` : undefined);
    if (listPath !== undefined) {
      const base = listPath.slice(0, listPath.lastIndexOf('/') + 1);
      let rows = lists.get(listPath);
      if (!rows) lists.set(listPath, (rows = []));
      rows.push(`${id}\t\`${file.startsWith(base) ? file.slice(base.length) : file}\``);
      if (type.ext === '.skl') skillLists.add(listPath);
    }
    if (sampleTexts.length > 0 && rng() < 0.005) {
      const matching = sampleTexts.filter(([ext]) => ext === type.ext);
      if (matching.length > 0) samples.set(file, (pick(rng, matching) as [string, string])[1]);
    }
  }
  const tables = ['equipment/equipment.kor.str', 'stackable/stackable.kor.str', 'monster/monster.kor.str', 'etc/etc.kor.str'];
  for (const listPath of lists.keys()) {
    paths.push(listPath);
    kinds.push(-1);
    budgets.push(0);
  }
  paths.push('n_string.lst', ...tables);
  kinds.push(-1, ...tables.map(() => -1));
  budgets.push(0, ...tables.map(() => 0));
  return { paths, kinds: Int16Array.from(kinds), budgets: Int32Array.from(budgets), lists, samples };
}

function readSamples(): [ext: string, text: string][] {
  const files = ['godof/test/102010612.equ', 'godof/test/earthbreak.skl', 'DNF-PVF-file-Reference/格式规范工具/test_nostrum_greatvital.stk', 'pvfVSCode/src/samples/2011_championship_pack_at_ft.stk', 'DNF-PVF-file-Reference/修改后的模组文件/phantommastery_modified.skl'];
  return files.map((f) => [path.extname(f), readFileSync(path.join(SAMPLES, f), 'utf8')]);
}

/** Script text of a generated file. */
function scriptText(type: FileType, budget: number, rng: Rng, serial: number, names: NameSource): string {
  const parts: string[] = ['#PVF_File\n'];
  let tokens = 0;
  for (const section of type.head) {
    const body = headValue(section, rng, serial, names);
    parts.push(`\n[${section}]\n\t${body.replaceAll('\n', '\n\t')}\n`);
    tokens += 2 + (body.match(/\t/g)?.length ?? 0);
  }
  while (tokens < budget) {
    const section = pick(rng, type.bulk);
    const width = int(rng, 2, 8);
    const rows = Math.max(1, Math.min(int(rng, 1, 12), Math.ceil((budget - tokens) / width)));
    parts.push(`\n[${section}]\n`);
    for (let r = 0; r < rows; r++) parts.push(`\t${numericRow(rng, width)}\n`);
    if (rng() < 0.3) parts.push(`\t\`${pick(rng, IMAGES)}\`\n`);
    parts.push(`[/${section}]\n`);
    tokens += 2 + rows * width;
  }
  return parts.join('');
}

async function generate(file: string, plan: Plan, seed: number): Promise<{ ms: number; size: number; strings: number; scripts: number }> {
  const names = new NameSource(seededRandom(seed ^ 0x5eed));
  const index = new Map(plan.paths.map((p, i) => [p, i]));
  const started = now();
  let scripts = 0;
  let lastReport = started;
  const streamed = await streamClassicArchive(file, {
    paths: plan.paths,
    encoding: ENCODING,
    trailer: true,
    content(p) {
      const i = index.get(p) as number;
      const kind = plan.kinds[i] as number;
      const rng = seededRandom(seed + i * 7919);
      if (kind < 0) {
        if (p === 'n_string.lst') return { script: '0\t`equipment/equipment.kor.str`\n1\t`stackable/stackable.kor.str`\n3\t`equipment/equipment.kor.str`\n7\t`monster/monster.kor.str`\n4\t`etc/etc.kor.str`\n' };
        if (p.endsWith('.str')) {
          const rows: string[] = [];
          if (p === 'equipment/equipment.kor.str') {
            plan.kinds.forEach((k, serial) => {
              if (k >= 0 && (TYPES[k] as FileType).head.includes('name') && NameSource.isLink(serial)) rows.push(`name_${serial}>${NameSource.text(serial)}`);
            });
          }
          return { data: encodeText(`${rows.join('\n')}\n`, ENCODING) };
        }
        scripts++;
        return { script: `#PVF_File\n${(plan.lists.get(p) ?? []).join('\n')}\n` };
      }
      const type = TYPES[kind] as FileType;
      if (type.ext === '.ani') {
        const bytes = Buffer.alloc(int(rng, 200, 5000));
        for (let b = 0; b < bytes.length; b++) bytes[b] = (rng() * 256) | 0;
        return { data: bytes };
      }
      scripts++;
      const sample = plan.samples.get(p);
      return { script: sample ?? scriptText(type, plan.budgets[i] as number, rng, i, names) };
    },
    onProgress(done, total) {
      const t = now();
      if (t - lastReport > 5000 || done === total) {
        lastReport = t;
        process.stderr.write(`  generated ${done} / ${total} files (${fmtMs(t - started)})\n`);
      }
    },
  });
  return { ms: now() - started, size: streamed.size, strings: streamed.strings, scripts };
}

// --- Measuring (child process) ---

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface Measured {
  openMs: number[];
  /** readFileSync of the whole archive, alternating with the warm opens (openMs[1..]). */
  readFileMs: number[];
  firstFile: { path: string; ms: number; chars: number };
  reads: { path: string; readDecompileMs: number; bytesMs: number; chars: number; bytes: number }[];
  /** `await workspace.view()` alone, nothing changed on disk. */
  viewUs: number;
  reference: { openMs: number; fileCount: number; readMs: number[] };
  memory: { baseline: Memory; afterOpen: Memory; afterReads: Memory; afterReadsNoGc: Memory };
  fileCount: number;
  encoding: string;
  warnings: string[];
}

function memory(): Memory {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}

/**
 * readFileSync / warm open pairs per measuring process. One read of the 305 MiB file took 150-660 ms
 * within a single process on the 2-core VM; seven pairs give the medians a chance against that.
 */
const WARM_PAIRS = 7;

async function measure(file: string, firstPath: string, readPaths: string[]): Promise<Measured> {
  const gc = exposeGc();
  gc();
  const baseline = memory();
  const openMs: number[] = [];
  // First open: a cold process (what `serve` pays at start); three more later, each closed, for the warm figure.
  let start = now();
  const workspace = await createArchiveWorkspace(classicDriver, { workspaceId: 'bench', name: 'bench', path: file, reader: {} });
  openMs.push(now() - start);
  const info = workspace.info();
  if (!info.archiveOpen) throw new Error(`the archive did not open: ${info.error ?? ''}`);

  start = now();
  const first = (await workspace.view()).readText(firstPath);
  const firstMs = now() - start;
  gc();
  const afterOpen = memory();

  const reads: Measured['reads'] = [];
  for (const p of readPaths) {
    const t0 = now();
    const text = (await workspace.view()).readText(p);
    const t1 = now();
    reads.push({ path: p, readDecompileMs: t1 - t0, bytesMs: 0, chars: text.text.length, bytes: 0 });
  }
  const view = await workspace.view();
  for (const r of reads) {
    const t0 = now();
    const bytes = view.readBytes(r.path);
    r.bytesMs = now() - t0;
    r.bytes = bytes.length;
  }
  const views = 2000;
  start = now();
  for (let k = 0; k < views; k++) await workspace.view();
  const viewUs = ((now() - start) / views) * 1000;
  const afterReadsNoGc = memory();
  gc();
  const afterReads = memory();
  const warnings = info.warnings ?? [];
  await workspace.close();

  const readFileMs: number[] = [];
  for (let k = 0; k < WARM_PAIRS; k++) {
    gc();
    start = now();
    let whole: Buffer | null = readFileSync(file);
    readFileMs.push(now() - start);
    if (whole.length === 0) throw new Error('empty archive');
    whole = null;
    gc();
    start = now();
    const again = await createArchiveWorkspace(classicDriver, { workspaceId: 'again', name: 'again', path: file, reader: {} });
    openMs.push(now() - start);
    await again.close();
  }

  gc();
  start = now();
  const reference = openReference(file, REFERENCE_ENCODING);
  const referenceOpenMs = now() - start;
  const referenceReads: number[] = [];
  for (const p of readPaths) {
    const t0 = now();
    reference.decompile(p);
    referenceReads.push(now() - t0);
  }
  return {
    openMs,
    readFileMs,
    firstFile: { path: firstPath, ms: firstMs, chars: first.text.length },
    reads,
    viewUs,
    reference: { openMs: referenceOpenMs, fileCount: reference.fileCount, readMs: referenceReads },
    memory: { baseline, afterOpen, afterReads, afterReadsNoGc },
    fileCount: info.fileCount,
    encoding: info.encoding,
    warnings,
  };
}

/**
 * Node options of the second measuring process: V8's helper threads sized from the cores (Node's own
 * estimate, cores − 1) instead of its fixed four, as docs/mcp.md advises for machines of four cores or
 * fewer. Both runs are printed; see docs/benchmarks.md, "Classic, round 5".
 */
const POOL_FROM_CORES = ['--v8-pool-size=0'];

// --- Main ---

function machine(): Record<string, string | number> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memory: fmtBytes(os.totalmem()),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    load: os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
  };
}

async function main(): Promise<void> {
  if (args.measure !== undefined) {
    const job = JSON.parse(readFileSync(args.measure, 'utf8')) as { file: string; first: string; reads: string[] };
    process.stdout.write(JSON.stringify(await measure(job.file, job.first, job.reads)));
    return;
  }
  const files = positiveInt('files', args.files);
  const readCount = positiveInt('reads', args.reads);
  const seed = positiveInt('seed', args.seed);
  const startedAt = new Date();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-bench-archive-'));
  const file = args.archive === undefined ? path.join(dir, 'Script.pvf') : path.resolve(args.archive);
  process.stderr.write(`pvfdoc bench:archive — ${files} files, ${readCount} random reads, seed ${seed}\n  machine: ${JSON.stringify(machine())}\n  archive: ${file}\n`);
  try {
    const plan = planArchive(files, seed);
    // A kept archive: what generating would have reported, but the strings (not known without reading it).
    const gen = args.archive === undefined ? await generate(file, plan, seed) : { ms: NaN, size: 0, strings: NaN, scripts: plan.kinds.filter((k, i) => k >= 0 && !(plan.paths[i] as string).endsWith('.ani')).length + plan.lists.size };
    const size = (await stat(file)).size;
    process.stderr.write(`  written: ${fmtBytes(size)} in ${fmtMs(gen.ms)} (${gen.scripts} scripts, ${gen.strings} strings)\n`);

    const rng = seededRandom(seed ^ 0xbeef);
    const scripts = plan.paths.filter((p, i) => (plan.kinds[i] as number) >= 0 && !p.endsWith('.ani'));
    const chosen = new Set<string>();
    while (chosen.size < Math.min(readCount, scripts.length)) chosen.add(pick(rng, scripts));
    const first = pick(rng, scripts);
    const jobFile = path.join(dir, 'job.json');
    await writeFile(jobFile, JSON.stringify({ file, first, reads: [...chosen] }));
    process.stderr.write('  measuring in a fresh process...\n');
    const script = await bundleForNode(SELF, path.join(dir, 'measure.mjs'));
    const m = await runJsonChild<Measured>(script, ['--measure', jobFile]);
    process.stderr.write(`  measuring again with ${POOL_FROM_CORES.join(' ')}...\n`);
    const sized = await runJsonChild<Measured>(script, ['--measure', jobFile], POOL_FROM_CORES);
    const sizedReadMs = sized.reads.map((r) => r.readDecompileMs);
    const sizedFigures = {
      nodeOptions: POOL_FROM_CORES,
      openMs: sized.openMs,
      readFileMs: sized.readFileMs,
      readDecompile: { p50: percentile(sizedReadMs, 50), p90: percentile(sizedReadMs, 90), p99: percentile(sizedReadMs, 99), max: Math.max(...sizedReadMs) },
      reference: { p50: percentile(sized.reference.readMs, 50), p99: percentile(sized.reference.readMs, 99) },
      warmOpenToReadFile: median(sized.openMs.slice(1)) / median(sized.readFileMs),
      readsOver1ms: sizedReadMs.filter((ms) => ms > 1).length,
    };

    const readMs = m.reads.map((r) => r.readDecompileMs);
    const bytesMs = m.reads.map((r) => r.bytesMs);
    const sizes = m.reads.map((r) => r.bytes);
    const warmOpen = median(m.openMs.slice(1));
    const readFile = median(m.readFileMs);
    const referenceRead = { p50: percentile(m.reference.readMs, 50), p99: percentile(m.reference.readMs, 99) };
    const report = {
      date: startedAt.toISOString(),
      machine: machine(),
      options: { files, reads: readCount, seed },
      archive: { bytes: size, fileCount: m.fileCount, scripts: gen.scripts, strings: gen.strings, encoding: m.encoding, warnings: m.warnings, generateMs: gen.ms },
      openMs: m.openMs,
      readFileMs: m.readFileMs,
      firstFile: m.firstFile,
      viewUs: m.viewUs,
      read: {
        count: m.reads.length,
        readDecompile: { p50: percentile(readMs, 50), p90: percentile(readMs, 90), p99: percentile(readMs, 99), max: Math.max(...readMs), mean: readMs.reduce((a, b) => a + b, 0) / readMs.length },
        bytesOnly: { p50: percentile(bytesMs, 50), p99: percentile(bytesMs, 99), max: Math.max(...bytesMs) },
        fileBytes: { p50: percentile(sizes, 50), p99: percentile(sizes, 99), max: Math.max(...sizes) },
      },
      reference: { openMs: m.reference.openMs, fileCount: m.reference.fileCount, read: referenceRead },
      ratios: {
        coldOpenToReadFile: (m.openMs[0] ?? NaN) / readFile,
        warmOpenToReadFile: warmOpen / readFile,
        openToReference: warmOpen / m.reference.openMs,
        readP50ToReference: percentile(readMs, 50) / referenceRead.p50,
        readP99ToReference: percentile(readMs, 99) / referenceRead.p99,
      },
      readsOver1ms: readMs.filter((ms) => ms > 1).length,
      poolFromCores: sizedFigures,
      memory: m.memory,
      slowest: [...m.reads].sort((a, b) => b.readDecompileMs - a.readDecompileMs).slice(0, 5),
    };
    const out = args.out ?? path.join(os.tmpdir(), `pvfdoc-bench-archive-${startedAt.getTime()}.json`);
    await writeFile(out, JSON.stringify(report, null, 2));

    const mem = (x: Memory) => `${fmtBytes(x.rss)} (heap ${fmtBytes(x.heapUsed)}, buffers ${fmtBytes(x.arrayBuffers)})`;
    const lines = [
      `Classic archive benchmark, ${startedAt.toISOString()} (${startedAt.toString()})`,
      `machine: ${Object.entries(report.machine)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
      '',
      table(
        ['figure', '>value'],
        [
          ['archive', `${fmtBytes(size)}, ${m.fileCount} files (${gen.scripts} scripts), ${Number.isNaN(gen.strings) ? '?' : gen.strings} strings in stringtable.bin, encoding ${m.encoding}`],
          ['generate (streamed to disk)', fmtMs(gen.ms)],
          ['open (createArchiveWorkspace), first in the process', fmtMs(m.openMs[0] ?? NaN)],
          [`open, median of the next ${m.openMs.length - 1} (each after a readFileSync)`, `${fmtMs(warmOpen)} (${m.openMs.slice(1).map(fmtMs).join(', ')})`],
          [`readFileSync of the whole archive, median of ${m.readFileMs.length}`, `${fmtMs(readFile)} (${m.readFileMs.map(fmtMs).join(', ')})`],
          ['first file: view + read + decompile', `${fmtMs(m.firstFile.ms)} (${m.firstFile.path}, ${m.firstFile.chars} chars)`],
          [`random view + read + decompile (${m.reads.length} scripts) p50 / p90 / p99 / max`, `${fmtMs(report.read.readDecompile.p50)} / ${fmtMs(report.read.readDecompile.p90)} / ${fmtMs(report.read.readDecompile.p99)} / ${fmtMs(report.read.readDecompile.max)}`],
          ['view + read + decompile mean', fmtMs(report.read.readDecompile.mean)],
          ['view() alone, nothing changed (mean of 2000)', fmtMs(m.viewUs / 1000)],
          ['bytes only (read, decrypt, CRC) p50 / p99 / max', `${fmtMs(report.read.bytesOnly.p50)} / ${fmtMs(report.read.bytesOnly.p99)} / ${fmtMs(report.read.bytesOnly.max)}`],
          ['compiled size of the files read p50 / p99 / max', `${fmtBytes(report.read.fileBytes.p50)} / ${fmtBytes(report.read.fileBytes.p99)} / ${fmtBytes(report.read.fileBytes.max)}`],
          ['reference reader: open (readFileSync + tree + Map) / read + decompile p50 / p99', `${fmtMs(m.reference.openMs)} (${m.reference.fileCount} files) / ${fmtMs(referenceRead.p50)} / ${fmtMs(referenceRead.p99)}`],
          ['RSS before open (after imports)', mem(m.memory.baseline)],
          ['RSS after open + first file (after gc)', mem(m.memory.afterOpen)],
          ['RSS after the reads (before gc)', mem(m.memory.afterReadsNoGc)],
          ['RSS after the reads (after gc; text cache held)', mem(m.memory.afterReads)],
        ],
      ),
      '',
      table(
        ['ratio (one process)', '>value'],
        [
          ['open, first in the process / readFileSync', report.ratios.coldOpenToReadFile.toFixed(2)],
          ['open, warm / readFileSync', report.ratios.warmOpenToReadFile.toFixed(2)],
          ['open, warm / reference reader open', report.ratios.openToReference.toFixed(2)],
          ['read + decompile p50 / reference p50', report.ratios.readP50ToReference.toFixed(2)],
          ['read + decompile p99 / reference p99', report.ratios.readP99ToReference.toFixed(2)],
        ],
      ),
      '',
      table(
        ['Node defaults against V8 helpers sized from the cores', '>Node defaults', `>${POOL_FROM_CORES.join(' ')}`],
        [
          ['read + decompile p50 / p99', `${fmtMs(report.read.readDecompile.p50)} / ${fmtMs(report.read.readDecompile.p99)}`, `${fmtMs(sizedFigures.readDecompile.p50)} / ${fmtMs(sizedFigures.readDecompile.p99)}`],
          [`reads over 1 ms (of ${m.reads.length})`, String(report.readsOver1ms), String(sizedFigures.readsOver1ms)],
          ['reference reader p50 / p99', `${fmtMs(referenceRead.p50)} / ${fmtMs(referenceRead.p99)}`, `${fmtMs(sizedFigures.reference.p50)} / ${fmtMs(sizedFigures.reference.p99)}`],
          ['open, warm / readFileSync', report.ratios.warmOpenToReadFile.toFixed(2), sizedFigures.warmOpenToReadFile.toFixed(2)],
        ],
      ),
      '',
      `slowest reads: ${report.slowest.map((r) => `${r.path} ${fmtMs(r.readDecompileMs)} (${fmtBytes(r.bytes)})`).join('; ')}`,
      `results JSON: ${out}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (args.keep) process.stderr.write(`  kept: ${file}\n`);
  } finally {
    if (!args.keep) await rm(dir, { recursive: true, force: true });
  }
}

await main();
