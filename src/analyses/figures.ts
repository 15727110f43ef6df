// What every token figure is (SPEC §2): billed (the provider's usage, each billed response once), counted
// (Tierscope's tokenizer over what it reconstructed) or estimated (counted × calibration). One vocabulary for the
// app, the CLI and the report, and the billed totals a headline shows where the log has usage, split as the bill
// is (input, cache read, cache write, output). New formats and views use these words and this sum.
import type { ObservedUsage, Transcript } from '../model/transcript.ts';

export type FigureKind = 'billed' | 'counted' | 'estimated';

/** What each kind of figure is, in the words the UI and the CLI use next to it. */
export const FIGURE_MEANING: Record<FigureKind, string> = {
  billed: "the provider's usage as the log records it, each billed response once",
  counted: "Tierscope's tokenizer over the input it reconstructed from the log",
  estimated: 'counted tokens × the calibration fitted to the billed ones',
};

/** Which figure of the report (`--json`) is which kind. */
export const REPORT_FIGURES: Record<string, FigureKind> = {
  'totals.billed': 'billed',
  'totals.tokensIn': 'counted',
  'totals.tokensAfterPipeline': 'counted',
  'totals.observed': 'billed',
  'requests[].observed': 'billed',
  'requests[].tokensIn': 'counted',
  'requests[].tokensAfterPipeline': 'counted',
  'requests[].estimateIn': 'estimated',
  'requests[].estimateAfterPipeline': 'estimated',
  'totals.simulated': 'estimated',
};

/** Billed tokens, split as the bill is. `prompt` = input + cacheRead + cacheWrite. */
export type BilledTokens = {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  prompt: number;
  total: number;
  /** Billed responses summed (requests with usage and responses billed apart). */
  responses: number;
};

function add(b: BilledTokens, u: ObservedUsage): void {
  b.input += u.input;
  b.cacheRead += u.cacheRead;
  b.cacheWrite += u.cacheWrite;
  b.output += u.output;
  b.responses++;
}

/** Every billed response of the transcript once (requests with usage, rewound branches, usage-only calls); null
 *  when the log records no usage. The same responses recorded cost prices (recorded-cost.ts). */
export function billedTokens(t: Transcript): BilledTokens | null {
  const b: BilledTokens = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, prompt: 0, total: 0, responses: 0 };
  for (const th of t.threads) {
    for (const r of th.requests) if (r.observed) add(b, r.observed);
    for (const x of th.billedApart ?? []) add(b, x.usage);
  }
  if (b.responses === 0) return null;
  b.prompt = b.input + b.cacheRead + b.cacheWrite;
  b.total = b.prompt + b.output;
  return b;
}
