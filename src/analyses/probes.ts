// Deterministic probes of a compaction summary against the ledger of the span it folds (issue 17, the seeds'
// context-compression skill): which modified and read files, error strings, identifiers, open todos and latest
// instructions the summary still names. A match is exact (the item's text verbatim), normalized (case, spacing and
// quotes folded; a path by a suffix of two or more segments, or `~` for the home directory), basename (a path's
// last segment, only when no other ledger path shares it) or prefix (the first 40 folded characters of a long
// error or instruction). Anything else is lost. Probe types: recall, artifact, continuation, decision. A run probes
// every summary's ledger items again, the same texts as the runs before: their folded forms are kept (Folds).
import type { Ledger, LedgerItem, LedgerKind } from './ledger.ts';

export type ProbeKind = Exclude<LedgerKind, 'commands'>;
type MatchKind = 'exact' | 'normalized' | 'basename' | 'prefix';
export type ProbeItem = Omit<LedgerItem, 'times'> & { match: MatchKind | null };
type ProbeResult = { kept: ProbeItem[]; lost: ProbeItem[] };
export type Probes = Record<ProbeKind, ProbeResult>;

export const PROBE_KINDS: readonly ProbeKind[] = [
  'filesModified',
  'filesRead',
  'errors',
  'identifiers',
  'todos',
  'instructions',
];

/** The skill's four probe types and the ledger kinds that answer each deterministically, artifacts first (a lost
 *  file being edited is the 37.1 failure). Decisions have no exact anchor in a log (they are prose): only a model
 *  probe can ask about them. */
export const PROBE_TYPES: Readonly<Record<'artifact' | 'recall' | 'continuation' | 'decision', readonly ProbeKind[]>> =
  {
    artifact: ['filesModified', 'filesRead'],
    recall: ['errors', 'identifiers'],
    continuation: ['todos', 'instructions'],
    decision: [],
  };

const PREFIX = 40;

/** Case, whitespace, quotes and backticks folded; backslashes as slashes. */
export function fold(s: string): string {
  return s
    .toLowerCase()
    .replace(/\\/g, '/')
    .replace(/[`"'“”‘’«»*]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Lines kept before the memo starts over (a thread's paths, errors, todos and instructions; a drag probes the same
 *  ones again). */
const MAX_FOLDS = 50_000;

/** Ledger item texts → fold(text) (the audit's memo keeps one: items are probed again by every summary of every
 *  run over their span). Bound: MAX_FOLDS, then it starts over. */
export class Folds {
  private readonly folded = new Map<string, string>();
  of(text: string): string {
    let f = this.folded.get(text);
    if (f === undefined) {
      f = fold(text);
      if (this.folded.size >= MAX_FOLDS) this.folded.clear();
      this.folded.set(text, f);
    }
    return f;
  }
}

const PATH_CHAR = /[\w.\-~/]/;

/** `needle` in `hay` at path boundaries (not inside a longer name). */
function atBoundary(hay: string, needle: string): boolean {
  let at = hay.indexOf(needle);
  while (at >= 0) {
    const before = at === 0 ? '' : hay[at - 1];
    const after = hay[at + needle.length] ?? '';
    const okBefore = before === '' || before === '/' || !PATH_CHAR.test(before);
    const okAfter =
      after === '' || !/[\w-]/.test(after) || (after === '.' && !/[\w]/.test(hay[at + needle.length + 1] ?? ''));
    if (okBefore && okAfter) return true;
    at = hay.indexOf(needle, at + 1);
  }
  return false;
}

/** The home-relative form of an absolute path (`/Users/x/a` or `/home/x/a` → `~/a`), when it has one. */
function tildeForm(p: string): string | null {
  const m = /^\/(?:Users|home)\/[^/]+(\/.*)$/.exec(p);
  return m ? `~${m[1]}` : null;
}

/** The summary folded, made when a probe first needs it (most items match it verbatim). */
type Folded = () => string;

function matchPath(text: string, foldedOf: Folded, p: string, fp: string, unique: boolean): MatchKind | null {
  if (atBoundary(text, p)) return 'exact';
  const folded = foldedOf();
  const tilde = tildeForm(fp);
  if (atBoundary(folded, fp) || (tilde !== null && atBoundary(folded, tilde))) return 'normalized';
  const segs = fp.split('/').filter((s) => s !== '');
  for (let k = segs.length - 1; k >= 2; k--) {
    const suffix = segs.slice(segs.length - k).join('/');
    if (atBoundary(folded, suffix)) return 'normalized';
  }
  const base = segs.at(-1);
  if (unique && base && base.length >= 4 && atBoundary(folded, base)) return 'basename';
  return null;
}

function matchText(text: string, foldedOf: Folded, item: string, folds: Folds, prefix: boolean): MatchKind | null {
  if (text.includes(item)) return 'exact';
  const f = folds.of(item.replace(/…$/, ''));
  if (f === '') return null;
  const folded = foldedOf();
  if (folded.includes(f)) return 'normalized';
  if (prefix && f.length > PREFIX + 10 && folded.includes(f.slice(0, PREFIX))) return 'prefix';
  return null;
}

function matchIdentifier(text: string, id: string): MatchKind | null {
  return new RegExp(`(?<![\\w$])${id.replace(/\$/g, '\\$')}(?![\\w$])`).test(text) ? 'exact' : null;
}

/** The last segment of a folded path. */
const baseOf = (folded: string): string => folded.split('/').at(-1) ?? '';

/** Probe `summary` against `ledger`: per kind, the items it kept (with how it matched) and those it lost. `folds`:
 *  the items' folded texts kept from earlier probes (a fresh memo when absent). */
export function probeSummary(summary: string, ledger: Ledger, folds: Folds = new Folds()): Probes {
  let folded: string | undefined;
  const foldedOf = () => {
    folded ??= fold(summary);
    return folded;
  };
  const bases = new Map<string, number>();
  const countBase = (it: LedgerItem) => {
    const b = baseOf(folds.of(it.text));
    bases.set(b, (bases.get(b) ?? 0) + 1);
  };
  ledger.filesModified.forEach(countBase);
  ledger.filesRead.forEach(countBase);
  const probe = (items: readonly LedgerItem[], how: (it: LedgerItem) => MatchKind | null): ProbeResult => {
    const out: ProbeResult = { kept: [], lost: [] };
    for (const item of items) {
      const match = how(item);
      // The item without its count, `match` last (one object made per item).
      const { times: _t, ...it } = item;
      (it as ProbeItem).match = match;
      (match ? out.kept : out.lost).push(it as ProbeItem);
    }
    return out;
  };
  const path = (it: LedgerItem) => {
    const fp = folds.of(it.text);
    return matchPath(summary, foldedOf, it.text, fp, bases.get(baseOf(fp)) === 1);
  };
  return {
    filesModified: probe(ledger.filesModified, path),
    filesRead: probe(ledger.filesRead, path),
    errors: probe(ledger.errors, (it) => matchText(summary, foldedOf, it.text, folds, true)),
    identifiers: probe(ledger.identifiers, (it) => matchIdentifier(summary, it.text)),
    todos: probe(ledger.todos, (it) => matchText(summary, foldedOf, it.text, folds, true)),
    instructions: probe(ledger.instructions, (it) => matchText(summary, foldedOf, it.text, folds, true)),
  };
}
