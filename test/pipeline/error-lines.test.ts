// The error an anchored summary keeps of a failed tool result is its first line of output: under Codex's exec header
// (0.5x `Exit code: 1` … `Output:`, 0.11x `Chunk ID: a598b9` … `Output:`) the command's own first line, colour codes
// out — not the random chunk id, nor an exit code every failure shares.
import { expect, it } from 'vitest';
import type { Message } from '../../src/model/transcript.ts';
import { Contributions } from '../../src/pipeline/artifacts.ts';

function errorsOf(content: string): string[] {
  const m: Message = {
    index: 3,
    role: 'user',
    blocks: [{ type: 'tool_result', toolUseId: 'call_1', content, isError: true }],
  } as Message;
  const list = new Contributions();
  return list.artifacts(list.of(m), 7).errors.map((a) => a.text);
}

it('takes the command output under a Codex 0.11x exec header, without terminal colour codes', () => {
  const out =
    'Chunk ID: a598b9\nWall time: 0.0000 seconds\nProcess exited with code 1\nOriginal token count: 11\nOutput:\n' +
    '\u001b[1;33mWaiting for tests to start...\u001b[0m\n';
  expect(errorsOf(out)).toEqual(['Waiting for tests to start...']);
});

it('takes the command output under a Codex 0.5x header; an exec that printed nothing gives its exit line', () => {
  expect(errorsOf('Exit code: 1\nWall time: 0.9 seconds\nOutput:\n\nError: Cannot find module x\n')).toEqual([
    'Error: Cannot find module x',
  ]);
  expect(errorsOf('Chunk ID: 59d879\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\n')).toEqual([
    'Process exited with code 2',
  ]);
});

it('any other failed result keeps its first non-empty line', () => {
  expect(errorsOf('\n  Traceback (most recent call last):\n  File "a.py"')).toEqual([
    'Traceback (most recent call last):',
  ]);
  expect(errorsOf('Output:\nnot a header')).toEqual(['Output:']);
});
