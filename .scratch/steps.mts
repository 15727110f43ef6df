import { fileFromPath } from '/work/wt/formats/src/cli/node-input.ts';
import { parseTranscript } from '/work/wt/formats/src/formats/index.ts';
import { createTokenizer } from '/work/wt/formats/src/tokens/tokenizer.ts';
import { TokenMeter } from '/work/wt/formats/src/tokens/meter.ts';
const tok = await createTokenizer('o200k_base');
const m = new TokenMeter(tok);
const r = parseTranscript(fileFromPath(process.argv[2]), []);
if (!r.ok) throw new Error(r.error);
const t = r.transcript.threads[0];
let prev: any;
for (const q of t.requests.slice(0, Number(process.argv[3] ?? 12))) {
  const o = q.observed ? q.observed.input + q.observed.cacheRead : 0;
  if (prev) {
    const parts = t.messages.slice(prev.inputEnd, q.inputEnd).map((x) => `${x.role[0]}:${x.blocks.map((b) => `${b.type[0]}${m.block(b)}`).join(',')}`);
    console.log(`req ${q.index}: dObs ${o - prev.o}  ${parts.join(' | ')}`);
  }
  prev = { inputEnd: q.inputEnd, o };
}
