// What a reproduction must keep showing (SPEC §7 "a chosen predicate"): a pairing violation (rule, optionally
// at a stage and for one tool_use id), a tool result's tier, a cache break's cause, a compaction finding (a probe
// item its summary lost, or a summary that cannot be read) or a re-fetch after a compaction or after the
// pipeline. Specs are short strings for the CLI and the share dialog — `pairing:orphan-result@summarize`,
// `tier:toolu_abc=1`, `break:ttl-expired`, `compaction:main/89:lost:errors`, `refetch:after-pipeline#toolu_x` — and
// are checked against the same analyze() report the CLI and the UI show (compaction-predicate.ts has theirs).
import { type AnalyzeOptions, analyze } from '../analyses/analyze.ts';
import type { Report } from '../analyses/report.ts';
import type { Transcript } from '../model/transcript.ts';
import { isPairingRule, PAIRING_RULES, type PairingRule } from '../pairing/types.ts';
import {
  anchorCompaction,
  type CompactionPredicate,
  compactionFindings,
  compactionWitness,
  formatCompaction,
  parseCompaction,
  parseRefetch,
  type RefetchPredicate,
  refetchFindings,
  refetchWitness,
} from './compaction-predicate.ts';
import { PredicateError, type Witness } from './predicate-base.ts';

export { PredicateError, type Witness } from './predicate-base.ts';

export type Predicate =
  | { kind: 'pairing'; rule: PairingRule; stage?: string; toolUseId?: string }
  | { kind: 'tier'; toolUseId: string; tier: 1 | 2 | 3 | null }
  | { kind: 'break'; cause: string; source: 'any' | 'simulated' | 'observed' }
  | CompactionPredicate
  | RefetchPredicate;

const SYNTAX =
  'predicates: pairing:<rule>[@<stage>][#<toolUseId>], tier:<toolUseId>=<1|2|3|null>, break:[observed:|simulated:]<cause>, compaction:<thread>/<request>:lost:<kind>[=<text>], compaction:<thread>/<request>:unreadable, refetch:after-agent-compaction[#<toolUseId>], refetch:after-pipeline[#<toolUseId>]';

/** Parse a predicate spec; throws PredicateError with a one-line reason. */
export function parsePredicate(spec: string): Predicate {
  const s = spec.trim();
  const colon = s.indexOf(':');
  const kind = colon < 0 ? s : s.slice(0, colon);
  const rest = colon < 0 ? '' : s.slice(colon + 1);
  if (kind === 'pairing') {
    const m = /^([a-z-]+)(?:@([a-z-]+))?(?:#(.+))?$/.exec(rest);
    if (!m) throw new PredicateError(`bad pairing predicate "${spec}" (pairing:<rule>[@<stage>][#<toolUseId>])`);
    if (!isPairingRule(m[1]))
      throw new PredicateError(`unknown pairing rule "${m[1]}" (one of ${PAIRING_RULES.join(', ')})`);
    const p: Predicate = { kind: 'pairing', rule: m[1] };
    if (m[2]) p.stage = m[2];
    if (m[3]) p.toolUseId = m[3];
    return p;
  }
  if (kind === 'tier') {
    const eq = rest.lastIndexOf('=');
    const id = rest.slice(0, eq);
    const value = rest.slice(eq + 1);
    if (eq <= 0 || !/^(1|2|3|null)$/.test(value))
      throw new PredicateError(`bad tier predicate "${spec}" (tier:<toolUseId>=<1|2|3|null>)`);
    return { kind: 'tier', toolUseId: id, tier: value === 'null' ? null : (Number(value) as 1 | 2 | 3) };
  }
  if (kind === 'break') {
    const m = /^(?:(observed|simulated):)?(\S+)$/.exec(rest);
    if (!m) throw new PredicateError(`bad break predicate "${spec}" (break:[observed:|simulated:]<cause>)`);
    return { kind: 'break', cause: m[2], source: (m[1] as 'observed' | 'simulated' | undefined) ?? 'any' };
  }
  if (kind === 'compaction') return parseCompaction(spec, rest);
  if (kind === 'refetch') return parseRefetch(spec, rest);
  throw new PredicateError(`unknown predicate "${spec}"; ${SYNTAX}`);
}

export function formatPredicate(p: Predicate): string {
  switch (p.kind) {
    case 'pairing':
      return `pairing:${p.rule}${p.stage ? `@${p.stage}` : ''}${p.toolUseId ? `#${p.toolUseId}` : ''}`;
    case 'tier':
      return `tier:${p.toolUseId}=${p.tier}`;
    case 'break':
      return `break:${p.source === 'any' ? '' : `${p.source}:`}${p.cause}`;
    case 'compaction':
      return formatCompaction(p);
    case 'refetch':
      return `refetch:after-${p.after}${p.toolUseId ? `#${p.toolUseId}` : ''}`;
  }
}

/** `history-rewritten` matches `history-rewritten@12`; a cause with `@` must match exactly. */
function causeMatches(want: string, got: string | undefined): boolean {
  if (got === undefined) return false;
  return want.includes('@') ? got === want : got === want || got.split('@')[0] === want;
}

/** The first place in a report where the predicate holds, or null. */
export function findWitness(p: Predicate, r: Report): Witness | null {
  switch (p.kind) {
    case 'pairing': {
      const v = r.pairing.find(
        (x) =>
          x.rule === p.rule &&
          (p.stage === undefined || x.stage === p.stage) &&
          (p.toolUseId === undefined || x.toolUseId === p.toolUseId),
      );
      return v ? { thread: v.thread, request: v.request, message: null, detail: v.error } : null;
    }
    case 'tier': {
      const row = r.toolResults.find((x) => x.toolUseId === p.toolUseId);
      if (!row || row.tier !== p.tier) return null;
      return {
        thread: row.thread,
        request: row.firstTouchRequest,
        message: row.messageIndex,
        detail: `${row.tool} result ${row.toolUseId}: tier ${row.tier}`,
      };
    }
    case 'break': {
      for (const q of r.requests) {
        const sim = p.source !== 'observed' && causeMatches(p.cause, q.cacheBreak?.cause) ? q.cacheBreak : null;
        const obs = p.source !== 'simulated' && causeMatches(p.cause, q.observedBreak?.cause) ? q.observedBreak : null;
        const hit = sim ?? obs;
        if (hit) return { thread: q.thread, request: q.index, message: null, detail: `${hit.cause}: ${hit.detail}` };
      }
      return null;
    }
    case 'compaction':
      return compactionWitness(p, r);
    case 'refetch':
      return refetchWitness(p, r);
  }
}

/** What the report shows for this kind of predicate (for "does not hold" messages). */
export function describeFindings(p: Predicate, r: Report): string {
  const uniq = (xs: string[]) => [...new Set(xs)].slice(0, 12).join(', ') || 'none';
  switch (p.kind) {
    case 'pairing':
      return `pairing violations found: ${uniq(r.pairing.map((v) => `${v.rule}@${v.stage}`))}`;
    case 'tier': {
      const row = r.toolResults.find((x) => x.toolUseId === p.toolUseId);
      return row ? `${p.toolUseId} has tier ${row.tier}` : `no tool result with id ${p.toolUseId}`;
    }
    case 'break':
      return `cache breaks found: ${uniq(
        r.requests.flatMap((q) => [q.cacheBreak?.cause, q.observedBreak?.cause]).filter((c) => c !== undefined),
      )}`;
    case 'compaction':
      return compactionFindings(r);
    case 'refetch':
      return refetchFindings(r);
  }
}

/** The predicate pinned to what it finds in `r`, the input's report, so it still names the same thing in a
 *  reduced copy whose requests are renumbered (a compaction's `<thread>/<request>`); other kinds name stable ids. */
export function anchorPredicate(p: Predicate, r: Report): Predicate {
  return p.kind === 'compaction' ? anchorCompaction(p, r) : p;
}

/** A tester for the minimizer: analyze the candidate with the given settings and look for a witness. */
export function predicateTester(p: Predicate, o: AnalyzeOptions): (t: Transcript) => Witness | null {
  return (t) => findWitness(p, analyze(t, o).report);
}
