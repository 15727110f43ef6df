// Issue 19: which loads must ask before the http summarizer calls out (item 8), and the smaller file-size limit
// offered when the engine stops while loading (item 3).
import { describe, expect, it } from 'vitest';
import { smallerLimit } from '../../src/state/engine-status.ts';
import { needsConsent } from '../../src/state/summarizer-client.ts';

describe('summarizer consent', () => {
  it('asked for settings a link or share file brought with summarizer http, never for the user’s own', () => {
    expect(needsConsent({ kind: 'link' }, 'http')).toBe(true);
    expect(needsConsent({ kind: 'share-file' }, 'http')).toBe(true);
    expect(needsConsent({ kind: 'sample' }, 'http')).toBe(false);
    expect(needsConsent(null, 'http')).toBe(false);
    expect(needsConsent({ kind: 'link' }, 'extractive')).toBe(false);
  });
});

describe('a smaller file-size limit after a stop while loading', () => {
  const MB = 1024 * 1024;
  it('half the input, in whole MB, never above the current limit, at least 1 MB', () => {
    expect(smallerLimit(300 * MB, 384 * MB)).toBe(150 * MB);
    expect(smallerLimit(301 * MB + 5, 384 * MB)).toBe(150 * MB);
    expect(smallerLimit(null, 384 * MB)).toBe(192 * MB);
    expect(smallerLimit(1000 * MB, 100 * MB)).toBe(100 * MB);
    expect(smallerLimit(100, 384 * MB)).toBe(MB);
  });
});
