// A turn the user aborted and resumed (issue 26): the pending tool_use line has no result, and the new prompt hangs
// off an earlier line of the same response, skipping it. Claude Code sends the chain it walks, so the call is not in
// the resumed request: no pairing error is blamed on the recorded input; a parallel batch keeps every call.
import { describe, expect, it } from 'vitest';
import { validatePairing } from '../../src/pairing/validate.ts';
import { asst, jsonl, load, result, text, toolUse, user } from '../helpers/claude-code-lines.ts';

describe('Claude Code: an aborted and resumed turn follows the active branch', () => {
  const log = jsonl(
    user('u1', null, 'fix the build'),
    asst('a1', 'u1', 'm1', [text('Let me look.')]),
    asst('a2', 'a1', 'm1', [toolUse('t1', 'Bash', { command: 'npm run build' })]),
    // The user pressed Esc while t1 waited, then typed again: the prompt hangs off the text line.
    user('u2', 'a1', 'no, run the tests instead'),
    asst('a3', 'u2', 'm2', [text('Running the tests.')]),
  );

  it('leaves the abandoned call out of the branch, so the resumed request pairs', () => {
    const t = load(log);
    const th = t.threads[0];
    const uses = th.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_use');
    expect(uses).toEqual([]);
    expect(th.requests).toHaveLength(2);
    const last = th.requests[1];
    const issues = validatePairing(th.messages.slice(0, last.inputEnd), {
      provider: 'anthropic',
      thread: th.id,
      request: 1,
      stage: 'input',
    }).filter((v) => v.severity === 'error');
    expect(issues).toEqual([]);
  });

  it('keeps a parallel batch whole', () => {
    const t = load(
      jsonl(
        user('u1', null, 'read both'),
        asst('a1', 'u1', 'm1', [toolUse('t1')]),
        asst('a2', 'a1', 'm1', [toolUse('t2', 'Read', { file_path: 'b.ts' })]),
        user('r1', 'a1', [result('t1')], { sourceToolAssistantUUID: 'a1' }),
        user('r2', 'a2', [result('t2')], { sourceToolAssistantUUID: 'a2' }),
        asst('a3', 'r2', 'm2', [text('done')]),
      ),
    );
    const ids = t.threads[0].messages.flatMap((m) => m.blocks).flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    expect(ids).toEqual(['t1', 't2']);
  });
});
