// A row's one-line preview reads only the head of each block (projections/rows.ts), and is the preview the whole
// texts give: runs of white space as one space, 160 characters, `…` when there is more — for any texts.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Block, Message } from '../../src/model/transcript.ts';
import { previewOf, previewText } from '../../src/projections/rows.ts';

/** The preview from the whole texts (every block's text collapsed in full). */
function wholePreview(m: Message): string {
  const parts: string[] = [];
  let len = 0;
  for (const b of m.blocks) {
    const t = previewText(b);
    parts.push(t.replace(/\s+/g, ' ').trim());
    len += t.length;
    if (len > 160) break;
  }
  const s = parts.filter(Boolean).join(' · ');
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
}

const text = fc.array(fc.oneof(fc.constantFrom(' ', '\n', '\t', '   \n\n  '), fc.string({ maxLength: 30 })), {
  maxLength: 400,
});
const block = fc.oneof(
  text.map((p): Block => ({ type: 'text', text: p.join('') })),
  text.map((p): Block => ({ type: 'tool_result', toolUseId: 't1', content: p.join('') }) as Block),
);

it('is the preview of the whole texts, white space of any length and place included', () => {
  fc.assert(
    fc.property(fc.array(block, { minLength: 1, maxLength: 4 }), (blocks) => {
      const m = { index: 0, role: 'user', blocks, source: { line: 1, shape: 'native' } } as Message;
      expect(previewOf(m)).toBe(wholePreview(m));
    }),
    { numRuns: 500 },
  );
  const spaced = `${' \n'.repeat(5000)}word ${'x '.repeat(100_000)}`;
  const m = { index: 0, role: 'user', blocks: [{ type: 'text', text: spaced }], source: { line: 1 } } as Message;
  expect(previewOf(m)).toBe(wholePreview(m));
});
