import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8Text, decodeUtf8TextSteps } from '../../../runtime/script/decode-text.js';
import { normalizeText } from '../../../runtime/script/normalize-text.js';

/** The one-call reading the steps must equal: decode, normalise, hash. */
function oneCall(bytes: Uint8Array): { text: string; textRevision: string } {
  const text = normalizeText(new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes));
  return { text, textRevision: createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32) };
}

function run(bytes: Uint8Array, stepBytes: number): { value: { text: string; textRevision: string }; yields: number } {
  const steps = decodeUtf8TextSteps(bytes, stepBytes);
  let yields = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { value: step.value, yields };
    yields++;
  }
}

/** Byte pieces that land on every boundary case: CR LF pairs, multi-byte and 4-byte characters, invalid bytes, a BOM. */
const piece = fc.constantFrom(
  [0x61],
  [0x0d],
  [0x0a],
  [0x0d, 0x0a],
  [0xe4, 0xb8, 0xad], // 中
  [0xf0, 0x9f, 0x98, 0x80], // 😀
  [0xef, 0xbb, 0xbf], // BOM (anywhere)
  [0xff],
  [0x80],
  [0xe4, 0xb8], // truncated
  [0xf0, 0x9f],
  [0x60],
);

describe('decodeUtf8TextSteps', () => {
  it('gives the one-call text and textRevision whatever the step size', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), fc.integer({ min: 1, max: 9 }), (pieces, stepBytes) => {
        const bytes = Uint8Array.from(pieces.flat());
        expect(run(bytes, stepBytes).value).toEqual(oneCall(bytes));
        expect(decodeUtf8Text(bytes)).toEqual(oneCall(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('yields while decoding and hashing a text larger than a step', () => {
    const bytes = new TextEncoder().encode('[name]\r\n`苍穹😀`\r\n'.repeat(1000));
    const { value, yields } = run(bytes, 1024);
    expect(value).toEqual(oneCall(bytes));
    expect(yields).toBeGreaterThan(bytes.length / 1024);
  });
});
