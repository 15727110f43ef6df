// The token figures of the summary bar, each saying what it is (figures.ts): the headline is the billed tokens
// where the log has usage (every billed response once, split as the bill is: input, cache read, cache write,
// output), then the counted inputs before → after the pipeline, then the self-check of the estimates against the
// billed prompts and the log's own totals (self-check.ts).
import type { RunResult } from '../../protocol/index.ts';
import { fmtPct, fmtTokens } from '../common/format.ts';
import { Stat } from './Stat.tsx';

const n = (x: number) => x.toLocaleString('en-US');

export function TokenStats({ r }: { r: RunResult }) {
  const t = r.totals;
  const b = t.billed;
  const sc = r.selfCheck;
  // Recorded dollars that miss the log's stated cost are a warning; an estimate's miss is only said.
  const costOff = sc.cost !== null && !sc.cost.agrees && sc.cost.basis === 'recorded';
  const flagged = sc.flagged
    .slice(0, 8)
    .map(
      (f) =>
        `${f.miss >= 0 ? '+' : '−'}${(Math.abs(f.miss) * 100).toFixed(1)}% ${f.thread} request ${f.request}${f.line !== null ? ` (line ${f.line})` : ''}: estimated ${n(f.estimate)}, billed ${n(f.billed)}`,
    );
  const sums = sc.totals
    .filter((x) => !x.agrees)
    .map(
      (x) =>
        `${x.thread}: responses add up to ${n(x.billed.prompt)} prompt tokens, the log's totals to ${n(x.log.prompt)}`,
    );
  return (
    <>
      {b && (
        <Stat
          label="tokens billed"
          title={`Billed: the provider's usage as the log records it, each of ${n(b.responses)} billed responses once.\nTotal ${n(b.total)} = input ${n(b.input)} + cache read ${n(b.cacheRead)} + cache write ${n(b.cacheWrite)} + output ${n(b.output)}.`}
        >
          <span data-testid="stat-tokens" data-kind="billed" data-total={b.total}>
            {fmtTokens(b.total)}
          </span>
          <span className="muted" data-testid="stat-tokens-split">
            {' '}
            input {fmtTokens(b.input)} · cache read {fmtTokens(b.cacheRead)} · cache write {fmtTokens(b.cacheWrite)} ·
            output {fmtTokens(b.output)}
          </span>
        </Stat>
      )}
      <Stat
        label={b ? 'counted' : 'tokens counted'}
        title={`Counted: input tokens of every request summed, by Tierscope's tokenizer (${r.settings.encoding}) over the input it reconstructed (a static prefix the log lacks is inferred from the billed usage) — as logged → after the pipeline. Saved ${n(t.tokensSaved)}.${b ? '' : ' The log records no usage, so nothing here is billed.'}`}
      >
        <span data-testid={b ? 'stat-tokens-counted' : 'stat-tokens'} data-kind="counted" data-total={t.tokensIn}>
          {fmtTokens(t.tokensIn)} → {fmtTokens(t.tokensAfterPipeline)}
        </span>
        <span className="saved">
          {' '}
          saved {fmtTokens(t.tokensSaved)}
          {t.tokensIn > 0 ? ` (${fmtPct(t.tokensSaved / t.tokensIn)})` : ''}
        </span>
      </Stat>
      {(sc.within !== null || sc.totals.length > 0 || sc.cost) && (
        <Stat
          label="self-check"
          title={[
            `Estimated prompts (counted × calibration) against the billed ones: ${sc.summary}.`,
            ...flagged,
            ...(sc.flagged.length > flagged.length ? [`… ${sc.flagged.length - flagged.length} more`] : []),
            ...sums,
          ].join('\n')}
          tone={sc.ok ? 'good' : 'warn'}
        >
          <span data-testid="stat-self-check" data-ok={sc.ok ? 'true' : 'false'} data-flagged={sc.flagged.length}>
            {sc.within !== null ? `${Math.round(sc.within * 100)}% ±3%` : sc.totals.length > 0 ? 'sums' : 'cost'}
            {sc.ok ? '' : ` · ⚠ ${sc.flagged.length + sums.length + (costOff ? 1 : 0)}`}
          </span>
        </Stat>
      )}
    </>
  );
}
