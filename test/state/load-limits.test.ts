import { describe, expect, it } from 'vitest';
import { APP_MAX_FILE_BYTES, DEFAULT_LIMITS } from '../../src/formats/index.ts';
import { formatBytes } from '../../src/lib/bytes.ts';
import { DEFAULT_LOAD_LIMITS, fileTooBig, useLoadLimits } from '../../src/state/load-limits.ts';

describe('load limits of the page', () => {
  it('start at the engine defaults', () => {
    expect(DEFAULT_LOAD_LIMITS).toEqual({
      maxFileBytes: APP_MAX_FILE_BYTES,
      maxLineBytes: DEFAULT_LIMITS.maxLineBytes,
      maxThreads: DEFAULT_LIMITS.maxThreads,
    });
  });

  it('refuse a file over the limit before reading it, with sizes a person reads', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1.5 * 1024 ** 2)).toBe('1.5 MB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2 GB');
    expect(fileTooBig('a.jsonl', 384 * 1024 ** 2)).toBeNull();
    expect(fileTooBig('a.jsonl', 1.9 * 1024 ** 3)).toBe('a.jsonl is 1.9 GB, over the 384 MB file-size limit.');
    useLoadLimits.setState({ maxFileBytes: 1024 ** 2 });
    try {
      expect(fileTooBig('two\nlines.json', 3 * 1024 ** 2)).toBe(
        'two lines.json is 3 MB, over the 1 MB file-size limit.',
      );
    } finally {
      useLoadLimits.setState({ ...DEFAULT_LOAD_LIMITS });
    }
  });
});
