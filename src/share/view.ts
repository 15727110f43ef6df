// What a person looks at, as one type with one encoding (SPEC §6 "View state", §7): the thread, request and
// selected message, the rewrite event and detail tab, the open compaction view with its focused probe item, the
// timeline's range, the config tab, and — in the page URL only — the sessions table's sort, filters and opened
// session. The page URL's fragment, history entries and share links all carry it as `key=value&…` pairs, defaults
// left out; a share payload holds the same string. Reading fails per field (a warning each), never throws.
import { isObject } from '../lib/json.ts';

const DETAIL_TABS = ['raw', 'normalized', 'diff'] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];
const CONFIG_TABS = ['controls', 'json', 'aliases', 'summarizer', 'limits'] as const;
export type ConfigTab = (typeof CONFIG_TABS)[number];

/** The timeline's visible range: request indices of the shown thread, inclusive. */
export type TimelineRange = { from: number; to: number };

/** The transcript view a link carries (and the page URL, with the table beside it). */
export type View = {
  /** null: the transcript's default thread. */
  thread: string | null;
  request: number | null;
  /** The selected message (transcript row). */
  selection: number | null;
  /** The selected rewrite event (the diff of one block). */
  event: number | null;
  detail: DetailTab;
  /** The open compaction view (a report `compactions[].id`) and its focused probe item (probeKey). */
  compaction: string | null;
  probe: string | null;
  range: TimelineRange | null;
  config: ConfigTab;
};

/** The sessions table of an opened folder: shown or not, the session opened from it, its filters and sort. */
export type TableView = {
  shown: boolean;
  session: string | null;
  since: string | null;
  until: string | null;
  projects: string[];
  sort: string;
  dir: 'asc' | 'desc';
};

export const DEFAULT_VIEW: View = {
  thread: null,
  request: null,
  selection: null,
  event: null,
  detail: 'raw',
  compaction: null,
  probe: null,
  range: null,
  config: 'controls',
};

export const DEFAULT_TABLE: TableView = {
  shown: false,
  session: null,
  since: null,
  until: null,
  projects: [],
  sort: 'start',
  dir: 'desc',
};

/** A focused probe item: which summary (the compaction's own, or Tierscope's anchored one), the probe kind,
 *  kept or lost, and its place in that list — `summary.errors.lost.0`. */
export type ProbeFocus = { side: 'summary' | 'anchored'; kind: string; kept: boolean; index: number };

export function probeKey(f: ProbeFocus): string {
  return `${f.side}.${f.kind}.${f.kept ? 'kept' : 'lost'}.${f.index}`;
}

export function parseProbeKey(key: string): ProbeFocus | null {
  const m = /^(summary|anchored)\.([A-Za-z]+)\.(kept|lost)\.(\d+)$/.exec(key);
  return m ? { side: m[1] as ProbeFocus['side'], kind: m[2], kept: m[3] === 'kept', index: Number(m[4]) } : null;
}

/** Keys of the fragment that name what is loaded rather than how it is viewed (url-state.ts reads them). */
const SOURCE_KEYS = new Set(['s', 'sample', 'file', 'link']);

/** A value as it is written in a fragment: percent-encoded, but `/`, `:` and `@` (ids and paths) left readable. */
function enc(v: string): string {
  return encodeURIComponent(v).replace(/%2F/g, '/').replace(/%3A/g, ':').replace(/%40/g, '@');
}

function dec(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** The `key=value` pairs of a fragment or view string, in order (a repeated key repeats). */
export function fragmentPairs(text: string): [string, string][] {
  const body = text.startsWith('#') ? text.slice(1) : text;
  const out: [string, string][] = [];
  for (const part of body.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    out.push(eq < 0 ? [dec(part), ''] : [dec(part.slice(0, eq)), part.slice(eq + 1)]);
  }
  return out;
}

/** Pairs written back as a fragment body; values are encoded here (`s` is already URL-safe). */
export function pairsText(pairs: readonly [string, string][]): string {
  return pairs.map(([k, v]) => `${k}=${k === 's' ? v : enc(v)}`).join('&');
}

/** The pairs of a view (defaults left out), in a fixed order; the table's when given. */
export function viewPairs(v: View, table?: TableView): [string, string][] {
  const out: [string, string][] = [];
  if (v.thread !== null) out.push(['thread', v.thread]);
  if (v.request !== null) out.push(['request', String(v.request)]);
  if (v.selection !== null) out.push(['message', String(v.selection)]);
  if (v.event !== null) out.push(['event', String(v.event)]);
  if (v.detail !== DEFAULT_VIEW.detail) out.push(['detail', v.detail]);
  if (v.compaction !== null) out.push(['compaction', v.compaction]);
  if (v.compaction !== null && v.probe !== null) out.push(['probe', v.probe]);
  if (v.range !== null) out.push(['range', `${v.range.from}-${v.range.to}`]);
  if (v.config !== DEFAULT_VIEW.config) out.push(['config', v.config]);
  if (table) {
    if (table.shown) out.push(['sessions', '1']);
    if (table.session !== null) out.push(['session', table.session]);
    if (table.since !== null) out.push(['since', table.since]);
    if (table.until !== null) out.push(['until', table.until]);
    for (const p of table.projects) out.push(['project', p]);
    if (table.sort !== DEFAULT_TABLE.sort) out.push(['sort', table.sort]);
    if (table.dir !== DEFAULT_TABLE.dir) out.push(['dir', table.dir]);
  }
  return out;
}

/** The view as one string (`thread=agent-1&request=3&compaction=main/agent/0`); '' for the default view. */
export function encodeView(v: View, table?: TableView): string {
  return pairsText(viewPairs(v, table));
}

export type ReadView = { view: View; table: TableView; warnings: string[] };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function index(raw: string): number | null {
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

/** A view read from pairs: a bad value is left at its default with a warning; unknown keys are named. */
export function readViewPairs(pairs: readonly [string, string][]): ReadView {
  const view: View = { ...DEFAULT_VIEW };
  const table: TableView = { ...DEFAULT_TABLE, projects: [] };
  const warnings: string[] = [];
  const bad = (k: string, v: string, what: string) =>
    warnings.push(`view.${k} ${JSON.stringify(v)} is not ${what}; ignored`);
  for (const [k, raw] of pairs) {
    const v = dec(raw);
    switch (k) {
      case 'thread':
        if (v !== '') view.thread = v;
        else bad(k, v, 'a thread id');
        break;
      case 'request':
      case 'message':
      case 'event': {
        const n = index(v);
        if (n === null) bad(k, v, 'an index');
        else if (k === 'request') view.request = n;
        else if (k === 'message') view.selection = n;
        else view.event = n;
        break;
      }
      case 'detail':
        if ((DETAIL_TABS as readonly string[]).includes(v)) view.detail = v as DetailTab;
        else bad(k, v, `one of ${DETAIL_TABS.join(', ')}`);
        break;
      case 'config':
        if ((CONFIG_TABS as readonly string[]).includes(v)) view.config = v as ConfigTab;
        else bad(k, v, `one of ${CONFIG_TABS.join(', ')}`);
        break;
      case 'compaction':
        if (v !== '') view.compaction = v;
        else bad(k, v, 'a compaction id');
        break;
      case 'probe':
        if (parseProbeKey(v)) view.probe = v;
        else bad(k, v, 'a probe item (summary.<kind>.<kept|lost>.<n>)');
        break;
      case 'range': {
        const m = /^(\d{1,9})-(\d{1,9})$/.exec(v);
        if (m && Number(m[1]) <= Number(m[2])) view.range = { from: Number(m[1]), to: Number(m[2]) };
        else bad(k, v, 'a request range (<from>-<to>)');
        break;
      }
      case 'sessions':
        table.shown = v === '1';
        break;
      case 'session':
        if (v !== '') table.session = v;
        break;
      case 'since':
      case 'until':
        if (DAY.test(v)) table[k] = v;
        else bad(k, v, 'a day (YYYY-MM-DD)');
        break;
      case 'project':
        if (v !== '') table.projects.push(v);
        break;
      case 'sort':
        if (/^[A-Za-z]+$/.test(v)) table.sort = v;
        else bad(k, v, 'a column');
        break;
      case 'dir':
        if (v === 'asc' || v === 'desc') table.dir = v;
        else bad(k, v, 'asc or desc');
        break;
      default:
        if (!SOURCE_KEYS.has(k)) warnings.push(`view key "${k}" is unknown; ignored`);
    }
  }
  if (view.probe !== null && view.compaction === null) view.probe = null;
  return { view, table, warnings };
}

/** A view as a share payload holds it: the string of this module, or (links made before it) an object
 *  `{thread, request, selection}`. */
export function readPayloadView(raw: unknown): { view: View; warnings: string[] } {
  if (raw === undefined) return { view: { ...DEFAULT_VIEW }, warnings: [] };
  if (typeof raw === 'string') {
    const r = readViewPairs(fragmentPairs(raw));
    return { view: r.view, warnings: r.warnings };
  }
  if (!isObject(raw)) return { view: { ...DEFAULT_VIEW }, warnings: ['view is not a view; using the default view'] };
  const warnings: string[] = [];
  const at = (k: 'request' | 'selection') => {
    const v = raw[k];
    if (v === undefined || v === null) return null;
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
    warnings.push(`view.${k} ${JSON.stringify(v)} is not an index; ignored`);
    return null;
  };
  const t = raw.thread;
  let thread: string | null = null;
  if (typeof t === 'string') thread = t;
  else if (t !== undefined && t !== null) warnings.push(`view.thread ${JSON.stringify(t)} is not a thread id; ignored`);
  return { view: { ...DEFAULT_VIEW, thread, request: at('request'), selection: at('selection') }, warnings };
}
