// countTranscript counts only what the tokenizer has not seen: a session read again as it grew (new Block objects,
// mostly the same texts) takes the known texts' counts from the tokenizer's cache and counts the rest, with the
// same totals as counting everything afresh.
import { expect, it } from 'vitest';
import { countTranscript } from '../../src/tokens/count-transcript.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import { createTokenizer } from '../../src/tokens/tokenizer.ts';
import { asst, jsonl, load, result, text, toolUse, user } from '../helpers/claude-code-lines.ts';

const lines = [
  user('u1', null, 'Please read the configuration file and tell me what it says about caching.'),
  asst('a1', 'u1', 'msg_1', [text('I will read the configuration file first.'), toolUse('t1')]),
  user('u2', 'a1', [result('t1', 'cache:\n  ttl: 300\n  backend: redis\n# the rest of the file is comments')]),
  asst('a2', 'u2', 'msg_2', [text('The cache keeps entries for five minutes in Redis.')]),
];
const grown = [...lines, user('u3', 'a2', 'And what backend does the session store use, according to the same file?')];
const noPool = () => {
  throw new Error('small transcripts are counted inline');
};

it('counts the texts a grown session added, and takes the rest from the cache', async () => {
  const tokenizer = await createTokenizer('o200k_base');
  const first = await countTranscript(load(jsonl(...lines)), new TokenMeter(tokenizer), 'o200k_base', noPool);
  expect(first.texts).toBeGreaterThan(4);
  const again = load(jsonl(...grown));
  const meter = new TokenMeter(tokenizer);
  const second = await countTranscript(again, meter, 'o200k_base', noPool);
  // Only the new prompt is counted (the other texts are the first load's, in new Block objects).
  expect(second.texts).toBe(1);
  const fresh = new TokenMeter(await createTokenizer('o200k_base'));
  for (const th of again.threads)
    for (const m of th.messages) {
      expect(meter.hasBlock(m.blocks[0])).toBe(true);
      expect(meter.message(m)).toBe(fresh.message(m));
    }
});
