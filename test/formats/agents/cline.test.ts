// Cline and Roo Code (issue 31): the Cline 4 session files (cline/cline's own fixtures), the same session as a
// Cline 3.x task folder and as a Roo Code one (scripts/make-fixtures.ts), each usage rule with its evidence.
import { describe, expect, it } from 'vitest';
import { recordedCost } from '../../../src/analyses/recorded-cost.ts';
import { fileFromText, parseTranscript } from '../../../src/formats/index.ts';
import { agentFixture, clineSessionDollars, clineTaskDollars, loadAgent } from '../../helpers/agent-fixtures.ts';

const SESSION = 'cline/sessions/1784094124598_rruoq/1784094124598_rruoq.messages.json';
const TASK = 'cline/tasks/1783376868634/api_conversation_history.json';
const ROO = 'cline/roo-tasks/1783376868634/api_conversation_history.json';

describe('Cline / Roo Code', () => {
  for (const rel of [SESSION, TASK, ROO, 'cline/sessions/success/success.messages.json']) {
    it(`${rel}: loads as cline, no error, every tool call answered in the next user turn`, () => {
      const t = loadAgent(rel);
      expect(t.format).toBe('cline');
      expect(t.parseIssues.filter((i) => i.severity === 'error')).toEqual([]);
      const m = t.threads[0].messages;
      m.forEach((msg, i) => {
        for (const b of msg.blocks)
          if (b.type === 'tool_use')
            expect(m[i + 1]?.blocks.some((x) => x.type === 'tool_result' && x.toolUseId === b.id)).toBe(true);
      });
    });
  }

  it('the three shapes of one session give the same usage per request (Cline 4 inputTokens = the whole prompt)', () => {
    const obs = (rel: string) => loadAgent(rel).threads[0].requests.map((r) => r.observed);
    expect(obs(TASK)).toEqual(obs(SESSION));
    expect(obs(ROO)).toEqual(obs(SESSION));
    // {"inputTokens":35912,"cacheReadTokens":34332}: 1,580 uncached.
    expect(obs(SESSION)[1]).toEqual({ input: 35912 - 34332, cacheRead: 34332, cacheWrite: 0, output: 164 });
    expect(loadAgent(TASK).meta.extra?.usageRule).toBe('disjoint');
    expect(loadAgent(ROO).meta.extra?.usageRule).toBe('total');
  });

  it('recorded dollars equal the raw files at the catalog prices', () => {
    const near = (rel: string, theirs: { usd: number; responses: number }) => {
      const ours = recordedCost(loadAgent(rel), {}).totals;
      expect(ours?.usd ?? 0).toBeCloseTo(theirs.usd, 6);
    };
    near(SESSION, clineSessionDollars(agentFixture(SESSION)));
    near(TASK, clineTaskDollars(agentFixture('cline/tasks/1783376868634/ui_messages.json')));
    near(ROO, clineTaskDollars(agentFixture('cline/roo-tasks/1783376868634/ui_messages.json'), true));
  });

  it('the Cline 4 manifest names the title; Roo’s environment details name the model', () => {
    expect(loadAgent(SESSION).meta.title).toContain('agent-sidebar.tsx');
    expect(loadAgent(ROO).threads[0].requests[0].model).toBe('anthropic/claude-opus-4.8-fast');
  });

  it('a request sent while Cline truncated carries the first two messages and those after the range', () => {
    const hist = [
      { role: 'user', content: 'task' },
      { role: 'assistant', content: [{ type: 'text', text: 'a1' }] },
      { role: 'user', content: 'u2' },
      { role: 'assistant', content: [{ type: 'text', text: 'a2' }] },
      { role: 'user', content: 'u3' },
      { role: 'assistant', content: [{ type: 'text', text: 'a3' }] },
    ];
    const req = (c: number, range?: [number, number]) => ({
      ts: 1,
      type: 'say',
      say: 'api_req_started',
      text: JSON.stringify({ tokensIn: 100, tokensOut: 5, cacheReads: 0, cacheWrites: 0, cost: 0 }),
      conversationHistoryIndex: c,
      ...(range ? { conversationHistoryDeletedRange: range } : {}),
    });
    const ui = [req(-1), req(1), req(3, [2, 3])];
    const r = parseTranscript(fileFromText('api_conversation_history.json', JSON.stringify(hist)), [
      fileFromText('ui_messages.json', JSON.stringify(ui)),
    ]);
    if (!r.ok) throw new Error(r.error);
    const last = r.transcript.threads[0].requests[2];
    expect(last.inputEnd).toBe(5);
    expect(last.exactInput?.map((m) => m.index)).toEqual([0, 1, 4]);
  });
});
