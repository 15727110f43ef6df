// Secret-looking strings that a share must never carry: provider API keys (sk-ant-…, sk-…, AKIA…, ghp_…,
// AIza…, xox…-, Stripe), JWTs, bearer/basic credentials, private-key blocks, `password=`-style assignments
// and e-mail addresses. Redaction always replaces them, even inside kept paths, and lists them in the preview.
// Patterns favour recall over precision: a false positive costs a few filler characters, a miss leaks a key.

export type SecretKind =
  | 'private-key'
  | 'anthropic-key'
  | 'openai-key'
  | 'github-token'
  | 'aws-key'
  | 'slack-token'
  | 'google-key'
  | 'stripe-key'
  | 'jwt'
  | 'bearer-token'
  | 'basic-auth'
  | 'assigned-secret'
  | 'email';

export type SecretHit = {
  kind: SecretKind;
  start: number;
  end: number;
  /** Leading characters that name the kind (`sk-ant-`, `ghp_`…), kept when only secrets are replaced. */
  prefix: number;
};

type Pattern = { kind: SecretKind; re: RegExp; prefix?: RegExp };

const PATTERNS: readonly Pattern[] = [
  {
    kind: 'private-key',
    re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    prefix: /^-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  },
  { kind: 'anthropic-key', re: /\bsk-ant-[A-Za-z0-9_-]{16,}/g, prefix: /^sk-ant-(?:[a-z]+\d*-)?/ },
  {
    kind: 'openai-key',
    re: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g,
    prefix: /^sk-(?:proj-|svcacct-|admin-|None-)?/,
  },
  {
    kind: 'github-token',
    re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g,
    prefix: /^(?:gh._|github_pat_)/,
  },
  { kind: 'aws-key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, prefix: /^(?:AKIA|ASIA)/ },
  { kind: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, prefix: /^xox.-/ },
  { kind: 'google-key', re: /\bAIza[0-9A-Za-z_-]{35}/g, prefix: /^AIza/ },
  { kind: 'stripe-key', re: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g, prefix: /^.._(?:live|test)_/ },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer-token', re: /(?<=\b[Bb]earer\s{1,4})[A-Za-z0-9._~+/-]{16,}=*/g },
  { kind: 'basic-auth', re: /(?<=\bBasic\s{1,4})[A-Za-z0-9+/]{12,}={0,2}/g },
  {
    kind: 'assigned-secret',
    re: /(?<=\b(?:api[_-]?key|apikey|secret(?:[_-]?key)?|client[_-]?secret|access[_-]?key(?:[_-]?id)?|auth[_-]?token|access[_-]?token|token|password|passwd|pwd)["']?\s{0,3}[:=]\s{0,3}["']?)[^\s"'`,;)}\]]{8,}/gi,
  },
  { kind: 'email', re: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g },
];

/** Assigned values that are references or plain numbers, not secrets. */
const NOT_A_VALUE = /^(?:[0-9.]+|true|false|null|undefined|none|\$.*|<.*|\{.*|process\.env.*|os\.environ.*|\*+)$/i;

/** Quick pre-check: most strings hold no candidate at all. */
const MAYBE = /sk-|sk_|rk_|pk_|gh[pousr]_|github_pat_|AKIA|ASIA|xox|AIza|eyJ|earer|Basic|PRIVATE KEY|@|[:=]/i;

/** Secret-looking spans of `text`, sorted and non-overlapping (earlier pattern wins on overlap). */
export function findSecrets(text: string): SecretHit[] {
  if (!MAYBE.test(text)) return [];
  const hits: SecretHit[] = [];
  for (const p of PATTERNS) {
    for (const m of text.matchAll(p.re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (end === start || hits.some((h) => h.start < end && start < h.end)) continue;
      if (p.kind === 'assigned-secret' && NOT_A_VALUE.test(m[0])) continue;
      const pre = p.prefix?.exec(m[0]);
      hits.push({ kind: p.kind, start, end, prefix: pre ? pre[0].length : 0 });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}

/** A secret clipped for display: its first few characters and its length, never the whole value. */
export function maskSecret(secret: string, prefix: number): string {
  const show = Math.max(prefix, Math.min(4, Math.floor(secret.length / 4)));
  return `${secret.slice(0, show)}…(${secret.length} chars)`;
}
