import { describe, expect, it } from 'vitest';
import { RoundMap } from '../../src/lib/rounds.ts';

describe('RoundMap (src/lib/rounds.ts)', () => {
  it('keeps what the last `rounds` rounds used, and drops the rest', () => {
    const m = new RoundMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.nextRound();
    expect(m.size).toBe(0);
    expect(m.get('a')).toBe(1); // found in the round before: carried into this one
    m.set('c', 3);
    m.nextRound();
    expect(m.get('a')).toBe(1); // used last round, so still kept
    expect(m.get('c')).toBe(3);
    expect(m.get('b')).toBeUndefined(); // last used two rounds ago: dropped
    m.nextRound();
    m.nextRound();
    expect(m.get('a')).toBeUndefined();
    expect(m.size).toBe(0);
  });

  it('one round: each round starts empty', () => {
    const m = new RoundMap<number, string>(1);
    m.set(1, 'x');
    expect(m.get(1)).toBe('x');
    m.nextRound();
    expect(m.get(1)).toBeUndefined();
  });
});
