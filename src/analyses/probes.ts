// Deterministic probes of a compaction summary against the ledger of the span it folds (issue 17, the seeds'
// context-compression skill): which modified and read files, error strings, identifiers, open todos and latest
// instructions the summary still names. A match is exact (the item's text verbatim), normalized (case, spacing and
// quotes folded; a path by a suffix of two or more segments, or `~` for the home directory), basename (a path's
// last segment, only when no other ledger path shares it) or prefix (the first 40 folded characters of a long
// error or instruction). Anything else is lost. Probe types: recall, artifact, continuation, decision.
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

/** Whitespace a fold changes (a run, or one that is not a space): as `/\s+/g` would, without replacing each space
 *  between words by itself (4x the time on an 8 KB summary). */
const CHANGED_SPACE = /\s{2,}|[^\S ]/g;

/** Case, whitespace, quotes and backticks folded; backslashes as slashes. */
export function fold(s: string): string {
  return s
    .toLowerCase()
    .replace(/\\/g, '/')
    .replace(/[`"'“”‘’«»*]/g, '')
    .replace(CHANGED_SPACE, ' ')
    .trim();
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

function matchPath(text: string, foldedOf: Folded, p: string, unique: boolean): MatchKind | null {
  if (atBoundary(text, p)) return 'exact';
  const folded = foldedOf();
  const fp = fold(p);
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

function matchText(text: string, foldedOf: Folded, item: string, prefix: boolean): MatchKind | null {
  if (text.includes(item)) return 'exact';
  const f = fold(item.replace(/…$/, ''));
  if (f === '') return null;
  const folded = foldedOf();
  if (folded.includes(f)) return 'normalized';
  if (prefix && f.length > PREFIX + 10 && folded.includes(f.slice(0, PREFIX))) return 'prefix';
  return null;
}

function matchIdentifier(text: string, id: string): MatchKind | null {
  return new RegExp(`(?<![\\w$])${id.replace(/\$/g, '\\$')}(?![\\w$])`).test(text) ? 'exact' : null;
}

/** Whether a summary has a line holding exactly an item's text (a pipeline summary's section line: its text need not
 *  be made to find the item; the matchers would find it verbatim). */
export type Listed = (kind: ProbeKind, text: string) => boolean;

/** Probe `summary` (its text, or what makes it when a probe first needs it) against `ledger`: per kind, the items it
 *  kept (with how it matched) and those it lost. */
export function probeSummary(summary: string | (() => string), ledger: Ledger, listed?: Listed): Probes {
  let text = typeof summary === 'string' ? summary : undefined;
  const textOf = () => {
    text ??= (summary as () => string)();
    return text;
  };
  let folded: string | undefined;
  const foldedOf = () => {
    folded ??= fold(textOf());
    return folded;
  };
  const baseOf = (p: string) => fold(p).split('/').at(-1) ?? '';
  let bases: Map<string, number> | undefined; // made when a path is not listed
  const basesOf = () => {
    if (!bases) {
      bases = new Map();
      for (const it of [...ledger.filesModified, ...ledger.filesRead]) {
        const b = baseOf(it.text);
        bases.set(b, (bases.get(b) ?? 0) + 1);
      }
    }
    return bases;
  };
  const probe = (kind: ProbeKind, how: (it: LedgerItem) => MatchKind | null): ProbeResult => {
    const out: ProbeResult = { kept: [], lost: [] };
    for (const { times: _t, ...it } of ledger[kind]) {
      const match = listed?.(kind, it.text) ? 'exact' : how({ ...it, times: 1 });
      (match ? out.kept : out.lost).push({ ...it, match });
    }
    return out;
  };
  const path = (it: LedgerItem) => matchPath(textOf(), foldedOf, it.text, basesOf().get(baseOf(it.text)) === 1);
  const said = (it: LedgerItem) => matchText(textOf(), foldedOf, it.text, true);
  return {
    filesModified: probe('filesModified', path),
    filesRead: probe('filesRead', path),
    errors: probe('errors', said),
    identifiers: probe('identifiers', (it) => matchIdentifier(textOf(), it.text)),
    todos: probe('todos', said),
    instructions: probe('instructions', said),
  };
}
