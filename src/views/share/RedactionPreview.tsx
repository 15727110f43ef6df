import type { RedactionPreview as Preview, RedactionChange, RedactionWhere } from '../../protocol/index.ts';
import { fmtTokens } from '../common/format.ts';

const KIND: Record<string, string> = {
  text: 'text',
  thinking: 'thinking',
  'tool-input': 'tool inputs',
  'tool-result': 'tool results',
  system: 'system prompts',
  'tool-description': 'tool descriptions',
  title: 'titles',
  'parse-issue': 'parse notes',
  meta: 'metadata',
  image: 'images',
  other: 'other blocks',
};

const SECRET: Record<string, string> = {
  'private-key': 'private key',
  'gitlab-token': 'GitLab token',
  'npm-token': 'npm token',
  'huggingface-token': 'Hugging Face token',
  'url-credentials': 'password in a URL',
  'anthropic-key': 'Anthropic API key',
  'openai-key': 'OpenAI API key',
  'github-token': 'GitHub token',
  'aws-key': 'AWS key',
  'slack-token': 'Slack token',
  'google-key': 'Google API key',
  'stripe-key': 'Stripe key',
  jwt: 'JWT',
  'bearer-token': 'bearer token',
  'basic-auth': 'basic-auth credentials',
  'assigned-secret': 'password / secret assignment',
  email: 'e-mail address',
  'sendgrid-key': 'SendGrid key',
  'discord-token': 'Discord token',
  'telegram-token': 'Telegram bot token',
  password: 'password (in words)',
  pin: 'PIN',
  'high-entropy': 'random-looking key material',
  'base64-secret': 'base64-encoded secret',
};

/** A secret kind as the preview names it (secretlint's rules by their id: `secretlint:aws` → "aws (secretlint)"). */
function secretLabel(kind: string | undefined): string {
  if (!kind) return 'secret';
  if (kind.startsWith('secretlint:')) return `${kind.slice('secretlint:'.length).replace(/-/g, ' ')} (secretlint)`;
  return SECRET[kind] ?? kind;
}

/** Rows of the change list rendered (all are counted). */
const SHOWN = 150;

function whereText(w: RedactionWhere): string {
  const parts: string[] = [];
  if (w.thread) parts.push(w.thread);
  if (w.request !== undefined) parts.push(`request ${w.request}`);
  if (w.message !== undefined) parts.push(`message ${w.message}`);
  if (w.block !== undefined) parts.push(`block ${w.block}`);
  parts.push(w.field);
  return parts.join(' · ');
}

/** Clipped text on one line: line breaks shown as ⏎ (still plain text). */
function oneLine(s: string): string {
  return s.replace(/\r?\n/g, ' ⏎ ');
}

function n(x: number): string {
  return x.toLocaleString('en-US');
}

/** Secret-looking strings, masked, with where they are; `replaced` says whether the share still has them. */
export function SecretsList({ secrets, replaced }: { secrets: readonly RedactionChange[]; replaced: boolean }) {
  return (
    <ul className="sd-secrets">
      {secrets.slice(0, SHOWN).map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list order is fixed per preview
        <li key={i} data-testid="redaction-secret" data-kind={s.secret}>
          <span className="sd-secret-kind">
            {secretLabel(s.secret)}
            {s.occurrences > 1 && <span className="num muted"> ×{s.occurrences}</span>}
          </span>
          <span className="mono sd-before">{s.before}</span>
          <span className="muted">{replaced ? '→' : ''}</span>
          <span className="mono sd-after">{replaced ? s.after : ''}</span>
          <span className="muted sd-where" title={whereText(s.where)}>
            {s.occurrences > 1 ? 'first at ' : ''}
            {whereText(s.where)}
          </span>
        </li>
      ))}
      {secrets.length > SHOWN && <li className="muted">… and {secrets.length - SHOWN} more</li>}
    </ul>
  );
}

/** What redaction leaves as it is, and why: the identifiers the analysis reads, and the paths when kept. Any
 *  secret-looking part of them was replaced all the same. */
function KeptList({ preview }: { preview: Preview }) {
  const k = preview.kept;
  const names = (xs: string[]) => (xs.length > 6 ? `${xs.slice(0, 6).join(', ')} … (${n(xs.length)})` : xs.join(', '));
  return (
    <ul className="sd-kept muted" data-testid="redaction-kept">
      {k.toolNames.length > 0 && (
        <li data-kept="tool-names">
          Kept: tool names <span className="mono">{names(k.toolNames)}</span> — the pipeline's tool rules and the
          re-fetch check read them.
        </li>
      )}
      {k.models.length > 0 && (
        <li data-kept="models">
          Kept: models <span className="mono">{names(k.models)}</span> — they set the context window, prices and cache
          rules.
        </li>
      )}
      <li data-kept="ids">
        Kept: {n(k.ids)} ids (tool-call, message, request, session and thread ids) and {n(k.other)} structural values
        (types, roles, versions, keys) — pairing and the link's view point at them.
      </li>
      <li data-kept="paths">
        {preview.options.keepPaths
          ? `Kept: ${n(preview.counts.keptPaths)} file paths (you chose to keep them; tick "file paths too" to replace them).`
          : 'File paths are replaced too.'}
      </li>
      <li>
        Secret-looking parts of any of these were replaced all the same (also random-looking runs and encoded keys).
      </li>
    </ul>
  );
}

const KEPT_GROUPS: [keyof Preview['kept']['values'], string][] = [
  ['ids', 'ids'],
  ['inputKeys', 'tool-input keys kept as parameter names'],
  ['keys', 'object keys'],
  ['other', 'other values (types, roles, versions, enums, skipped kinds)'],
];

/** Every value the share keeps as it is, as it will be written, so the sharer can read what goes out. */
function KeptValues({ preview }: { preview: Preview }) {
  const k = preview.kept;
  const all = KEPT_GROUPS.reduce((sum, [g]) => sum + k.totals[g], 0) + k.toolNames.length + k.models.length;
  return (
    <details className="sd-group" data-testid="redaction-kept-values">
      <summary>{n(all)} values kept as they are — read them before you share</summary>
      {(
        [
          ['tool names', k.toolNames, k.toolNames.length],
          ['models', k.models, k.models.length],
          ...KEPT_GROUPS.map(([g, label]) => [label, k.values[g], k.totals[g]]),
        ] as [string, string[], number][]
      )
        .filter(([, values]) => values.length > 0)
        .map(([label, values, total]) => (
          <div key={label} className="sd-kept-group" data-kept-group={label}>
            <div className="muted">
              {label} ({n(total)})
            </div>
            <ul className="sd-paths mono">
              {values.slice(0, SHOWN).map((v) => (
                <li key={v}>{v}</li>
              ))}
              {total > SHOWN && <li className="muted">… and {n(total - SHOWN)} more</li>}
            </ul>
          </div>
        ))}
    </details>
  );
}

/** What redaction changes: counts by kind, the token effect, secrets (always replaced), kept paths, and the
 *  first changes with their before and after (as text, clipped). */
export function RedactionPreview({ preview, busy }: { preview: Preview | null; busy: boolean }) {
  if (!preview)
    return (
      <div className="sd-preview" data-testid="redaction-preview" aria-busy="true">
        <span className="muted">Preparing the redaction preview…</span>
      </div>
    );
  const c = preview.counts;
  const kinds = Object.entries(c.byKind).filter(([, k]) => (k ?? 0) > 0);
  const t = preview.tokens;
  const delta = t && t.before > 0 ? ((t.after - t.before) / t.before) * 100 : 0;
  return (
    <div
      className="sd-preview"
      data-testid="redaction-preview"
      aria-busy={busy}
      data-strings={c.strings}
      data-secrets={c.secrets}
    >
      <div className="sd-preview-summary">
        Replaces <strong className="num">{n(c.strings)}</strong> strings ({n(c.chars)} characters) with same-length
        filler of the same script:{' '}
        {kinds.map(([k, v], i) => (
          <span key={k} className="num">
            {i > 0 ? ' · ' : ''}
            {KIND[k] ?? k} {n(v ?? 0)}
          </span>
        ))}
        .
      </div>
      <KeptList preview={preview} />
      {t && (
        <div className="sd-preview-summary muted">
          Tokens {fmtTokens(t.before)} → {fmtTokens(t.after)} ({delta >= 0 ? '+' : ''}
          {delta.toFixed(1)}%), so the analysis stays close.
        </div>
      )}
      {c.secrets > 0 ? (
        <details className="sd-group" open>
          <summary className="sev-warning">
            {n(c.secrets)} secret-looking string{c.secrets === 1 ? '' : 's'} replaced
          </summary>
          <SecretsList secrets={preview.secrets} replaced />
        </details>
      ) : (
        <div className="muted">No secret-looking strings (API keys, tokens, e-mail addresses) found.</div>
      )}
      <KeptValues preview={preview} />
      {preview.keptPaths.length > 0 && (
        <details className="sd-group">
          <summary>{n(preview.keptPaths.length)} file paths kept</summary>
          <ul className="sd-paths mono">
            {preview.keptPaths.slice(0, SHOWN).map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </details>
      )}
      <details className="sd-group">
        <summary>
          Changes{' '}
          <span className="muted">
            (first {n(Math.min(SHOWN, preview.changes.length))} of {n(preview.changes.length + c.omitted)} distinct)
          </span>
        </summary>
        <table className="sd-changes">
          <tbody>
            {preview.changes.slice(0, SHOWN).map((ch, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: list order is fixed per preview
              <tr key={i} data-testid="redaction-change" data-kind={ch.kind}>
                <td>
                  <span className="muted sd-where" title={whereText(ch.where)}>
                    {whereText(ch.where)}
                  </span>
                </td>
                <td>
                  <span className="mono sd-before">{oneLine(ch.before)}</span>
                </td>
                <td>
                  <span className="mono sd-after">{oneLine(ch.after)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
