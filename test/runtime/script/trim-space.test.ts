import { describe, expect, it } from 'vitest';
import { isGoSpace, trimSpace } from '../../../runtime/script/trim-space.js';

describe('trimSpace', () => {
  it('trims Unicode White_Space like Go strings.TrimSpace', () => {
    expect(trimSpace(' \t\n\v\f\r 12 \u3000')).toBe('12');
    expect(trimSpace('\u0085x\u00a0')).toBe('x');
    expect(trimSpace('\u2028a b\u2029')).toBe('a b');
  });

  it('keeps U+FEFF, which JavaScript trim() would strip but Go does not', () => {
    expect(trimSpace('\ufeff1')).toBe('\ufeff1');
    expect(isGoSpace(0xfeff)).toBe(false);
  });

  it('returns the same string when there is nothing to trim', () => {
    expect(trimSpace('')).toBe('');
    expect(trimSpace('abc')).toBe('abc');
  });
});
