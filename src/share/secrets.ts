// Secret-looking strings that a share must never carry. Two detector sets, both run on every string:
// - secretlint's recommended preset (@secretlint/secretlint-rule-preset-recommend, pinned): the maintained
//   list of provider token formats (AWS, GCP, GitHub, GitLab, npm, Hugging Face, Slack, Stripe, OpenAI,
//   Anthropic, database URLs, basic auth in URLs, private keys …), run through its own rule code. Its
//   comment-filter rule is left out: a `secretlint-disable` line in a hostile log must not switch detection off.
// - house patterns: what a log holds that secretlint leaves to linters (JWTs, bearer and basic headers,
//   `*_SECRET=`/`password:` assignments, e-mail addresses, PGP key blocks), plus the token prefixes above
//   again without a word boundary, so a key glued after `_` (`prod_sk-ant-…`) is still found; SendGrid keys with `-`,
//   Discord and Telegram bot tokens, Azure `AccountKey=`, and the low-entropy ones only their words give away
//   (`my password is …`, `PIN 4821`).
// - for values a share keeps as they are (ids, paths, tool names, keys, enums: `findKeptSecrets`), also what only
//   looks random: a long mixed-case run of high entropy (a bare AWS secret key) and base64 that decodes to a secret.
// Patterns favour recall over precision: a false positive costs a few filler characters, a miss leaks a key.

import { rules as secretlintRules } from '@secretlint/secretlint-rule-preset-recommend';
import { firstIndex } from '../lib/search.ts';

/** A house kind, or the id of the secretlint rule that found it (`aws`, `github`, `database-connection-string` …). */
export type SecretKind =
  | 'private-key'
  | 'anthropic-key'
  | 'openai-key'
  | 'github-token'
  | 'gitlab-token'
  | 'npm-token'
  | 'huggingface-token'
  | 'aws-key'
  | 'slack-token'
  | 'google-key'
  | 'stripe-key'
  | 'jwt'
  | 'bearer-token'
  | 'basic-auth'
  | 'url-credentials'
  | 'assigned-secret'
  | 'email'
  | 'sendgrid-key'
  | 'discord-token'
  | 'telegram-token'
  | 'password'
  | 'pin'
  | 'high-entropy'
  | 'base64-secret'
  | `secretlint:${string}`;

export type SecretHit = {
  kind: SecretKind;
  start: number;
  end: number;
  /** Leading characters that name the kind (`sk-ant-`, `ghp_`, `API_KEY=`…), kept when only secrets are replaced. */
  prefix: number;
};

type Pattern = { kind: SecretKind; re: RegExp; prefix?: RegExp };

/** Not preceded by a letter or digit: `_`, `-`, `.`, `/` and the start of the text all count as a start. */
const S = '(?<![A-Za-z0-9])';

const PATTERNS: readonly Pattern[] = [
  {
    kind: 'private-key',
    re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    prefix: /^-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/,
  },
  { kind: 'anthropic-key', re: new RegExp(`${S}sk-ant-[A-Za-z0-9_-]{16,}`, 'g'), prefix: /^sk-ant-(?:[a-z]+\d*-)?/ },
  {
    kind: 'openai-key',
    re: new RegExp(`${S}sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`, 'g'),
    prefix: /^sk-(?:proj-|svcacct-|admin-|None-)?/,
  },
  {
    kind: 'github-token',
    re: new RegExp(`${S}(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})`, 'g'),
    prefix: /^(?:gh._|github_pat_)/,
  },
  {
    kind: 'gitlab-token',
    re: new RegExp(`${S}gl(?:pat|dt|rt|ptt|cbt|soat|ft)-[A-Za-z0-9_-]{20,}`, 'g'),
    prefix: /^gl[a-z]+-/,
  },
  { kind: 'npm-token', re: new RegExp(`${S}npm_[A-Za-z0-9]{36}`, 'g'), prefix: /^npm_/ },
  { kind: 'huggingface-token', re: new RegExp(`${S}hf_[A-Za-z0-9]{30,}`, 'g'), prefix: /^hf_/ },
  { kind: 'aws-key', re: new RegExp(`${S}(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Z])`, 'g'), prefix: /^A[A-Z]{3}/ },
  { kind: 'slack-token', re: new RegExp(`${S}xox[abposre]-[A-Za-z0-9-]{10,}`, 'g'), prefix: /^xox.-/ },
  { kind: 'google-key', re: new RegExp(`${S}AIza[0-9A-Za-z_-]{35}`, 'g'), prefix: /^AIza/ },
  {
    kind: 'stripe-key',
    re: new RegExp(`${S}(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}`, 'g'),
    prefix: /^.._(?:live|test)_/,
  },
  { kind: 'jwt', re: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'sendgrid-key', re: /SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g, prefix: /^SG\./ },
  {
    kind: 'discord-token',
    re: new RegExp(`${S}[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6,7}\\.[A-Za-z0-9_-]{27,40}`, 'g'),
  },
  { kind: 'telegram-token', re: new RegExp(`${S}\\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])`, 'g') },
  { kind: 'bearer-token', re: /(?<=\b[Bb]earer\s{1,4})[A-Za-z0-9._~+/-]{16,}=*/g },
  { kind: 'basic-auth', re: /(?<=\bBasic\s{1,4})[A-Za-z0-9+/]{12,}={0,2}/g },
  {
    // `AWS_SECRET_ACCESS_KEY=…`, `"db_password": "…"`, `apiKey: …`: any name holding one of the words.
    kind: 'assigned-secret',
    re: /(?<=(?:api[_-]?key|apikey|secret|password|passwd|passphrase|pwd|token|credential|private[_-]?key|access[_-]?key|account[_-]?key|auth)[A-Za-z0-9_.-]{0,40}["']?\s{0,3}[:=]\s{0,3}["']?)[^\s"'`,;)}\]]{8,}/gi,
  },
  // Starts only where a local part can start: from every position of a long run it was quadratic (200 KB: 200 s).
  { kind: 'email', re: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g },
  // Said in words: `my password is hunter2`, `password_hunter2`, `passcode: 4821` (any length from 4).
  {
    kind: 'password',
    re: /(?<=(?<![A-Za-z])(?:password|passwd|passphrase|passcode|pwd)(?:[\s_-]+(?:is|was|reads))?[\s_:=-]{1,3}["']?)(?!(?:is|was|reads)\b)[^\s"'`,;)}\]/\\]{4,64}(?![^\s"'`,;)}\]/\\])/gi,
  },
  {
    kind: 'pin',
    re: /(?<=(?<![A-Za-z])pin(?:[\s_-]*(?:code|number))?(?:[\s_-]+(?:is|was))?[\s_:=#-]{0,3})\d{4,8}(?!\d)/gi,
  },
  // The password of `scheme://user:password@host` (git remotes, database URLs, proxies).
  { kind: 'url-credentials', re: /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s/:@"'<>`]*:)(?!\*+@)[^\s/@"'<>`]+(?=@)/gi },
];

/** Values that are references (or, assigned to a name, plain numbers), not secrets. */
const REFERENCE = /^(?:true|false|null|undefined|none|\$.*|<.*|\{.*|process\.env.*|os\.environ.*|\*+)$/i;
const NUMBER = /^[0-9.]+$/;

/** Quick pre-check for the house patterns: most strings hold no candidate at all. */
const MAYBE =
  /sk-|sk_|rk_|pk_|gh[pousr]_|github_pat_|gl[a-z]+-|npm_|hf_|A[KSBC][IC]A|xox|AIza|eyJ|earer|Basic|PRIVATE KEY|@|[:=]|SG\.|\.[A-Za-z0-9_-]{6,7}\.|pass|pwd|pin/i;

/** House-pattern hits of one text (may overlap; `scan` resolves overlaps). */
function houseHits(text: string, out: SecretHit[]): void {
  if (!MAYBE.test(text)) return;
  for (const p of PATTERNS) {
    for (const m of text.matchAll(p.re)) {
      if (m[0].length === 0) continue;
      if (p.kind === 'assigned-secret' && (REFERENCE.test(m[0]) || NUMBER.test(m[0]))) continue;
      if (p.kind === 'password' && REFERENCE.test(m[0])) continue;
      const pre = p.prefix?.exec(m[0]);
      out.push({ kind: p.kind, start: m.index, end: m.index + m[0].length, prefix: pre ? pre[0].length : 0 });
    }
  }
}

type RuleHandler = { file?: (source: SecretlintSource) => unknown };
type SecretlintSource = { content: string; filePath: undefined; ext: string; contentType: 'text' };
type SecretlintRule = {
  meta: { id: string };
  create(context: unknown, options: Record<string, unknown>): RuleHandler;
};

/** Leading characters of a secretlint hit that name it: `NAME=` of an assignment, or a token prefix. */
const SECRETLINT_PREFIX = /^(?:[A-Za-z_][A-Za-z0-9_]*\s*[:=]\s*["']?|[a-z]{2,6}[_-](?:[a-z]{2,6}\d*[_-])?)/;

/**
 * secretlint's rules over one text, in this thread. Rules report synchronously for text without a file path
 * (the only asynchronous branch reads a `.p12` file from disk); a rule that throws is skipped, never fatal.
 */
function secretlintHits(text: string, out: SecretHit[]): void {
  const source: SecretlintSource = { content: text, filePath: undefined, ext: '', contentType: 'text' };
  for (const rule of secretlintRules as unknown as SecretlintRule[]) {
    const id = rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '');
    if (id === 'filter-comments') continue;
    const context = {
      createTranslator: () => (messageId: string) => messageId,
      report: (d: { range: readonly [number, number] }) => {
        const [start, end] = d.range;
        if (end <= start) return;
        const pre = SECRETLINT_PREFIX.exec(text.slice(start, Math.min(end, start + 64)));
        const prefix = pre && pre[0].length < end - start ? pre[0].length : 0;
        out.push({ kind: `secretlint:${id}`, start, end, prefix });
      },
      ignore: () => {},
      registerRule: () => {},
    };
    try {
      const r = rule.create(context, {}).file?.(source);
      if (r instanceof Promise) r.catch(() => undefined);
    } catch {
      // a rule that fails on odd input finds nothing there
    }
  }
}

/** Sorted, non-overlapping hits of `text`: overlapping ones merge (the earlier start names the kind; at one start,
 *  the house hit, more precise). */
export function mergeHits(hits: SecretHit[], text: string): SecretHit[] {
  const order = (h: SecretHit) => (h.kind.startsWith('secretlint:') ? 1 : 0);
  hits.sort((a, b) => a.start - b.start || order(a) - order(b) || b.end - a.end);
  const out: SecretHit[] = [];
  for (const h of hits) {
    const last = out[out.length - 1];
    if (last && h.start < last.end) {
      // A house hit inside a wider secretlint hit (the password inside a database URL) replaces it when the
      // wider one starts at a name or scheme that is not itself secret.
      if (last.kind.startsWith('secretlint:') && !h.kind.startsWith('secretlint:') && h.end <= last.end) {
        const url = /^[a-z][a-z0-9+.-]*:\/\//i;
        if (h.kind === 'url-credentials' && url.test(text.slice(last.start, last.end))) {
          out[out.length - 1] = h;
          continue;
        }
      }
      // Overlapping hits cover their union: a later hit that reaches further is never cut short.
      if (h.end > last.end) out[out.length - 1] = { ...last, end: h.end };
      continue;
    }
    out.push(h);
  }
  return out;
}

/** Secret-looking spans of one text, sorted and non-overlapping. */
export function findSecrets(text: string): SecretHit[] {
  if (text.length < 6) return [];
  const hits: SecretHit[] = [];
  houseHits(text, hits);
  secretlintHits(text, hits);
  return mergeHits(hits, text);
}

/** Id prefixes of the providers and agents: what follows them is an id, not a secret, up to this many characters. */
const ID_PREFIX =
  /^(?:toolu_(?:bdrk_|vrtx_)?|srvtoolu_|call_|msg_|req_|chatcmpl-|resp_|fc_|rs_|item_|run_|sig_|file[-_]|batch_)/;
const ID_BODY = 32;
/** Base64 (or base64url) runs long enough to hold a key, possibly split by `/` path separators. */
const RUN = /[A-Za-z0-9+/=_-]{20,}/g;

/** Bits per character of `s` (Shannon entropy of its characters). */
function entropy(s: string): number {
  const n = new Map<string, number>();
  for (const ch of s) n.set(ch, (n.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of n.values()) h -= (c / s.length) * Math.log2(c / s.length);
  return h;
}

/** How often neighbouring letters and digits change class (upper, lower, digit): ~0.6 in random base64, under 0.3
 *  in names (`PHASE_1_WRITE_OPERATIONS`, `parseTranscriptLines`). */
function classChanges(s: string): number {
  const cls = (c: number) => (c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : c >= 48 && c <= 57 ? 3 : 0);
  let pairs = 0;
  let changes = 0;
  for (let i = 1; i < s.length; i++) {
    const a = cls(s.charCodeAt(i - 1));
    const b = cls(s.charCodeAt(i));
    if (a === 0 || b === 0) continue;
    pairs++;
    if (a !== b) changes++;
  }
  return pairs > 0 ? changes / pairs : 0;
}

/** A run that looks like key material: 32+ characters (past an id prefix), upper, lower and digits mixed as in
 *  random text, high entropy. */
function looksRandom(s: string): boolean {
  const idPrefix = ID_PREFIX.exec(s)?.[0].length ?? 0;
  if (s.length < 32 || s.length - idPrefix <= ID_BODY) return false;
  const count = (re: RegExp) => s.match(re)?.length ?? 0;
  if (count(/[A-Z]/g) < 2 || count(/[a-z]/g) < 2 || count(/[0-9]/g) < 2) return false;
  return classChanges(s) >= 0.4 && entropy(s) >= 4.2;
}

/** Base64 that decodes to mostly printable text holding a secret. */
function encodesSecret(s: string): boolean {
  const body = s.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (body.length < 16 || body.length % 4 === 1 || /[=]/.test(body)) return false;
  let text: string;
  try {
    text = atob(body + '='.repeat((4 - (body.length % 4)) % 4));
  } catch {
    return false;
  }
  const printable = text.replace(/[^\x20-\x7e\n\t]/g, '').length;
  return printable >= 0.9 * text.length && findSecrets(text).length > 0;
}

/**
 * Secrets of a value a share keeps as it is (an id, a path, a tool name, a key, an enum): `findSecrets`, plus what
 * only looks random there — a high-entropy run (a bare AWS secret key) or base64 that decodes to a secret. Runs are
 * also judged per group of `/`-separated segments, so a key inside a path is found without the path around it.
 */
export function findKeptSecrets(text: string, known: SecretHit[] = findSecrets(text)): SecretHit[] {
  const hits = known.slice();
  for (const m of text.matchAll(RUN)) {
    const run = m[0];
    const parts: { start: number; end: number }[] = run.includes('/') ? [] : [{ start: 0, end: run.length }];
    // Consecutive segments that are not plain words (a word-only segment is path structure: home, src, notes).
    let from = -1;
    let at = 0;
    for (const seg of `${run}/`.split('/')) {
      const plain = /^[a-z]*$|^[A-Z][a-z]*$|^[a-z]+[0-9]{0,2}$/.test(seg) && seg.length < 16;
      if (!plain && from < 0) from = at;
      if (plain && from >= 0) {
        parts.push({ start: from, end: at - 1 });
        from = -1;
      }
      at += seg.length + 1;
    }
    for (const p of parts) {
      const piece = run.slice(p.start, p.end);
      if (piece.length === 0) continue;
      const kind = looksRandom(piece) ? 'high-entropy' : encodesSecret(piece) ? 'base64-secret' : undefined;
      if (!kind) continue;
      hits.push({ kind, start: m.index + p.start, end: m.index + p.end, prefix: 0 });
      break;
    }
  }
  return hits.length === known.length ? known : mergeHits(hits, text);
}

/** Join strings into texts of about this many characters for one secretlint pass each. */
const BATCH_CHARS = 1 << 20;
/** Between two strings of a batch: no pattern reads across a NUL and a line break. */
const SEP = '\u0000\n';

/**
 * Secret-looking spans of many strings at once (the strings of a whole transcript): secretlint's rules run
 * once per ~1 MB batch instead of once per string; each hit is mapped back to its string and clipped to it.
 */
export function scanStrings(strings: readonly string[]): SecretHit[][] {
  const out: SecretHit[][] = strings.map(() => []);
  let i = 0;
  while (i < strings.length) {
    const starts: number[] = [];
    const parts: string[] = [];
    let len = 0;
    const first = i;
    while (i < strings.length && (len === 0 || len + strings[i].length <= BATCH_CHARS)) {
      starts.push(len);
      parts.push(strings[i]);
      len += strings[i].length + SEP.length;
      i++;
    }
    const text = parts.join(SEP);
    const batch: SecretHit[] = [];
    secretlintHits(text, batch);
    for (const h of batch) {
      // The string holding the hit's start (binary search over the starts).
      const lo = Math.max(0, firstIndex(starts.length, (i) => starts[i] > h.start) - 1);
      const s = strings[first + lo];
      const start = h.start - starts[lo];
      const end = Math.min(s.length, h.end - starts[lo]);
      if (start >= s.length || end <= start) continue;
      out[first + lo].push({ ...h, start, end, prefix: Math.min(h.prefix, end - start - 1) });
    }
  }
  for (let k = 0; k < strings.length; k++) {
    if (strings[k].length >= 6) houseHits(strings[k], out[k]);
    out[k] = mergeHits(out[k], strings[k]);
  }
  return out;
}

/** A secret clipped for display: its first few characters and its length, never the whole value. */
export function maskSecret(secret: string, prefix: number): string {
  const show = Math.max(Math.min(prefix, 24), Math.min(4, Math.floor(secret.length / 4)));
  return `${secret.slice(0, show)}…(${secret.length} chars)`;
}
