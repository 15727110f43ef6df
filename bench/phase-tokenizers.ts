// Bench phase: the same blocks counted by Tierscope's BpeCounter (one thread), ai-tokenizer (the fastest
// exact JS tokenizer we found on the registry) and naive per-block js-tiktoken (time-limited and
// extrapolated by characters, as it would take far too long). Counts must be identical. Prints JSON.
import { fileFromPath } from '../src/cli/node-input.ts';
import { parseTranscript } from '../src/formats/index.ts';
import { blockText } from '../src/tokens/block-text.ts';
import { blocksTimer } from './tokenizers.ts';

const [file, naiveLimitMs = '60000'] = process.argv.slice(2);
const r = parseTranscript(fileFromPath(file));
if (!r.ok) throw new Error(r.error);
const blocks: string[] = [];
for (const th of r.transcript.threads) for (const m of th.messages) for (const b of m.blocks) blocks.push(blockText(b));
const t = blocksTimer(blocks);
const ours = t.bpeCounter();
const ai = t.aiTokenizer();
// naive js-tiktoken on an evenly spread sample so the extrapolation covers every content kind
const step = 7;
const sampleBlocks = blocks.filter((_, i) => i % step === 0);
const tn = blocksTimer(sampleBlocks);
const naive = tn.naiveJsTiktoken(Number(naiveLimitMs));
const oursSample = tn.bpeCounter();
const sampleChars = sampleBlocks.reduce((n, b) => n + b.length, 0);
const allChars = blocks.reduce((n, b) => n + b.length, 0);
console.log(
  JSON.stringify({
    blocks: blocks.length,
    chars: allChars,
    bpeCounterMs: ours.ms,
    bpeCounterTokens: ours.tokens,
    aiTokenizerMs: ai.ms,
    aiTokenizerTokens: ai.tokens,
    naiveJsTiktokenMsExtrapolated: (naive.ms * allChars) / sampleChars,
    naiveSampleFraction: naive.partial ?? 1,
    naiveSampleTokens: naive.partial === undefined ? naive.tokens : null,
    bpeCounterSampleTokens: oursSample.tokens,
    identical: ours.tokens === ai.tokens && (naive.partial !== undefined || naive.tokens === oursSample.tokens),
  }),
);
