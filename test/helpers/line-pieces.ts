// Texts dense in the characters that decide where the pre-tokenizer splits and where a text may be cut line by
// line (newlines, indentation, "/", punctuation, digits, apostrophes, CJK, emoji, lone surrogates, Unicode
// spaces): the generator of the line-unit property tests (tokens/line-units, tokens/pool-lines).
import fc from 'fast-check';

const PIECES = [
  '\n',
  '\n\n',
  '\r\n',
  ' \n',
  '\n ',
  '\n  ',
  '\n\t',
  '\n/',
  '/\n',
  '//',
  '\t',
  ' ',
  '  ',
  '\u00a0',
  '\u3000',
  '\u2028',
  'a',
  'The',
  "'s",
  "n't",
  'ABC',
  'x1',
  '123',
  '4567',
  '.',
  ',',
  ';',
  ':',
  '(',
  ')',
  '{',
  '}',
  '"',
  '-',
  '->',
  '日本語',
  'テスト',
  '😀',
  '\ud83d',
  '\ude00',
  'é',
  '\u0301',
  '#',
  '*',
  '...',
  '\\n',
  'http://',
  '\f',
  '\v',
];

/** Texts of `minLength`–`maxLength` pieces. */
export function lineTextArb(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...PIECES), { minLength, maxLength }).map((xs) => xs.join(''));
}
