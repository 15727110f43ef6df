// The 34 secret kinds of issue 29's adversarial pass, each built around a unique random body (what must not survive a
// redacted share): provider token formats, connection strings, headers, key blocks, and the low-entropy ones that only
// context gives away (a prose password, a PIN) or that look like any other id (a bare AWS secret key, a base64-encoded
// key). `secretKinds(seed)` gives each with the part of it that must never be shipped.

export type SecretKind = { kind: string; value: string; body: string };

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;
const HEX = '0123456789abcdef';

/** A seeded source of unique random bodies. */
function bodies(seed: number) {
  let x = (seed * 2654435761) >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
  const of = (alphabet: string, n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    return s;
  };
  return { of, mixed: (n: number) => `${of(UPPER, 2)}${of(LOWER, 2)}${of(DIGITS, 2)}${of(ALNUM, n - 6)}` };
}

export function secretKinds(seed = 1): SecretKind[] {
  const b = bodies(seed);
  const k = (kind: string, body: string, value: (x: string) => string): SecretKind => ({
    kind,
    body,
    value: value(body),
  });
  const base64 = (s: string) => Buffer.from(s).toString('base64');
  const awsSecret = `${b.of(UPPER, 2)}${b.of(LOWER, 2)}${b.of(DIGITS, 2)}/${b.of(B64, 33)}+`;
  const sendgrid = `${b.of(B64URL, 8)}-${b.of(B64URL, 13)}.${b.of(B64URL, 20)}-${b.of(B64URL, 22)}`;
  const encoded = base64(`sk-ant-api03-${b.mixed(40)}`);
  return [
    k('anthropic-key', b.mixed(40), (x) => `sk-ant-api03-${x}`),
    k('openai-key', b.mixed(40), (x) => `sk-proj-${x}`),
    k('github-classic', b.mixed(36), (x) => `ghp_${x}`),
    k('github-fine-grained', `${b.mixed(22)}_${b.mixed(59)}`, (x) => `github_pat_${x}`),
    k('gitlab', b.mixed(20), (x) => `glpat-${x}`),
    k('npm', b.mixed(36), (x) => `npm_${x}`),
    k('huggingface', b.of(UPPER + LOWER, 34), (x) => `hf_${x}`),
    k('aws-access-key-id', b.of(UPPER + DIGITS, 16), (x) => `AKIA${x}`),
    k('aws-secret-key-bare', awsSecret, (x) => x),
    k('slack-bot', `${b.of(DIGITS, 12)}-${b.of(DIGITS, 12)}-${b.mixed(24)}`, (x) => `xoxb-${x}`),
    k(
      'slack-webhook',
      b.mixed(24),
      (x) => `https://hooks.slack.com/services/T0${b.of(UPPER, 8)}/B0${b.of(UPPER, 8)}/${x}`,
    ),
    k('google-api-key', b.mixed(35), (x) => `AIza${x}`),
    k('stripe', b.mixed(24), (x) => `sk_live_${x}`),
    k('sendgrid-with-dash', sendgrid, (x) => `SG.${x}`),
    k(
      'azure-account-key',
      `${b.of(B64, 86)}==`,
      (x) => `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${x};EndpointSuffix=core.windows.net`,
    ),
    k('discord-token', `${b.of(B64URL, 6)}.${b.of(B64URL, 27)}`, (x) => `M${b.mixed(23)}.${x}`),
    k('jwt', b.of(B64URL, 43), (x) => `eyJhbGciOiJIUzI1NiJ9.eyJ${b.of(B64URL, 24)}.${x}`),
    k('bearer-header', b.mixed(32), (x) => `Authorization: Bearer ${x}`),
    k('basic-header', `${b.of(B64, 24)}==`, (x) => `Authorization: Basic ${x}`),
    k('url-password', b.mixed(18), (x) => `https://deploy:${x}@git.example.com/r.git`),
    k('postgres-url', b.mixed(18), (x) => `postgres://app:${x}@db.internal:5432/prod`),
    k('pem-private-key', b.of(B64, 64), (x) => `-----BEGIN RSA PRIVATE KEY-----\n${x}\n-----END RSA PRIVATE KEY-----`),
    k(
      'pgp-private-key',
      b.of(B64, 48),
      (x) => `-----BEGIN PGP PRIVATE KEY BLOCK-----\n${x}\n-----END PGP PRIVATE KEY BLOCK-----`,
    ),
    k('env-assignment', b.mixed(16), (x) => `DB_PASSWORD=${x}`),
    k('email', b.of(LOWER, 12), (x) => `${x}@example.com`),
    k('base64-encoded-key', encoded, (x) => x),
    k('prose-password', `${b.of(LOWER, 6)}${b.of(DIGITS, 3)}`, (x) => `my password is ${x}`),
    k('pin', b.of('123456789', 1) + b.of(DIGITS, 5), (x) => `PIN ${x}`),
    k('groq', b.mixed(52), (x) => `gsk_${x}`),
    k('shopify', b.of(HEX, 32), (x) => `shpat_${x}`),
    k('linear', b.mixed(40), (x) => `lin_api_${x}`),
    k('vault', b.mixed(90), (x) => `hvs.${x}`),
    k('databricks', b.of(HEX, 32), (x) => `dapi${x}`),
    k('telegram-bot', `AA${b.of(B64URL, 33)}`, (x) => `${b.of('123456789', 1)}${b.of(DIGITS, 9)}:${x}`),
  ];
}
