// Predicate specs for the minimizer and the CLI: parse ⇄ format round-trips, clear errors for bad specs,
// cause matching (`history-rewritten` matches `history-rewritten@12`), and the 32 KB / 2 MB link size classes.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { findWitness, formatPredicate, parsePredicate } from '../../src/share/predicate.ts';
import { classifyLink, LINK_MAX_BYTES, LINK_WARN_BYTES, linkBytes } from '../../src/share/size.ts';

describe('predicate specs', () => {
  it('parse and format round-trip', () => {
    for (const spec of [
      'pairing:orphan-result',
      'pairing:orphan-result@summarize',
      'pairing:missing-result@input#toolu_01ABC',
      'tier:toolu_abc=1',
      'tier:call=x=3',
      'tier:toolu_abc=null',
      'break:ttl-expired',
      'break:observed:sidechain',
      'break:simulated:history-rewritten@12',
    ])
      expect(formatPredicate(parsePredicate(spec))).toBe(spec);
    expect(parsePredicate('tier:call=x=3')).toEqual({ kind: 'tier', toolUseId: 'call=x', tier: 3 });
    expect(parsePredicate('pairing:split-batch@hardcap')).toEqual({
      kind: 'pairing',
      rule: 'split-batch',
      stage: 'hardcap',
    });
  });

  it('bad specs get a one-line reason', () => {
    expect(() => parsePredicate('pairing:bogus-rule')).toThrow(
      /unknown pairing rule "bogus-rule" \(one of missing-result/,
    );
    expect(() => parsePredicate('tier:toolu_abc=4')).toThrow(/tier:<toolUseId>=<1\|2\|3\|null>/);
    expect(() => parsePredicate('tier:=1')).toThrow(/bad tier predicate/);
    expect(() => parsePredicate('break:')).toThrow(/bad break predicate/);
    expect(() => parsePredicate('cache:miss')).toThrow(/unknown predicate "cache:miss"; predicates: pairing:/);
  });

  it('matches cache-break causes by name, with or without the message index', () => {
    const report = {
      requests: [
        { thread: 'main', index: 0, cacheBreak: null, observedBreak: null },
        {
          thread: 'main',
          index: 1,
          cacheBreak: { cause: 'history-rewritten@12', tokensLost: 5000, detail: 'rewrote 12', messageIndex: 12 },
          observedBreak: { cause: 'ttl-expired', tokensLost: 9000, detail: 'expired' },
        },
      ],
      pairing: [],
      toolResults: [],
    } as unknown as Report;
    expect(findWitness(parsePredicate('break:history-rewritten'), report)).toMatchObject({ request: 1 });
    expect(findWitness(parsePredicate('break:history-rewritten@12'), report)).not.toBeNull();
    expect(findWitness(parsePredicate('break:history-rewritten@3'), report)).toBeNull();
    expect(findWitness(parsePredicate('break:ttl-expired'), report)).not.toBeNull();
    expect(findWitness(parsePredicate('break:simulated:ttl-expired'), report)).toBeNull();
    expect(findWitness(parsePredicate('break:observed:ttl-expired'), report)?.detail).toBe('ttl-expired: expired');
  });
});

describe('link size classes', () => {
  it('ok up to 32 KB, warn above, offer a download above 2 MB', () => {
    expect(classifyLink('x'.repeat(LINK_WARN_BYTES)).class).toBe('ok');
    expect(classifyLink('x'.repeat(LINK_WARN_BYTES + 1))).toMatchObject({ class: 'warn', message: /over 32 KB/ });
    expect(classifyLink(LINK_MAX_BYTES).class).toBe('warn');
    expect(classifyLink(LINK_MAX_BYTES + 1)).toMatchObject({ class: 'download', message: /\.tierscope\.json/ });
    expect(linkBytes('#s=1.é')).toBe(7);
  });
});
