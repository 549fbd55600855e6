import { describe, expect, it } from 'vitest';
import { helperPoolAdvice } from '../../cli/helper-pool-advice.js';

describe('helperPoolAdvice', () => {
  it('advises NODE_OPTIONS=--v8-pool-size=0 on four cores or fewer when the pool was not sized', () => {
    for (const cores of [1, 2, 4]) {
      const line = helperPoolAdvice({ cores, execArgv: [], nodeOptions: undefined });
      expect(line).toContain('NODE_OPTIONS=--v8-pool-size=0');
      expect(line).toContain(`${cores} core(s)`);
    }
  });

  it('says nothing on more than four cores', () => {
    expect(helperPoolAdvice({ cores: 5, execArgv: [], nodeOptions: undefined })).toBeNull();
    expect(helperPoolAdvice({ cores: 16, execArgv: [], nodeOptions: '' })).toBeNull();
  });

  it('says nothing when the pool was sized on the command line or in NODE_OPTIONS', () => {
    expect(helperPoolAdvice({ cores: 2, execArgv: ['--v8-pool-size=0'], nodeOptions: undefined })).toBeNull();
    expect(helperPoolAdvice({ cores: 2, execArgv: ['--v8-pool-size', '1'], nodeOptions: undefined })).toBeNull();
    expect(helperPoolAdvice({ cores: 2, execArgv: [], nodeOptions: '--max-old-space-size=512  --v8-pool-size=2' })).toBeNull();
  });

  it('is not fooled by other options that merely start alike', () => {
    expect(helperPoolAdvice({ cores: 2, execArgv: ['--v8-pool-sizes=0'], nodeOptions: '--inspect' })).not.toBeNull();
  });
});
