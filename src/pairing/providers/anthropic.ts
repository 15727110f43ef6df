// Anthropic Messages API pairing rules (SPEC §5.1, peers-and-bugs §3) with the API's own error texts.
// Each tool_use is answered in the very next message, a user message that begins with the results; every
// result answers a tool_use of the message right before it; ids are unique; server tool results follow
// their server_tool_use inside the same assistant message. Consecutive user messages are NOT merged by the
// API for this check (bug #1: `U(S)`, `U[tr(X)]` is rejected), so the layout is one wire message each.
import type { Message } from '../../model/transcript.ts';
import { type Draft, idList, type ProviderCheck, serverResult } from './common.ts';
import type { WireUnit } from './wire.ts';

/** The API's error texts; all seen verbatim in public issues (claude-code #1738, #10834, #37; Anthropic.SDK
 *  #128; claude-agent-sdk-python #522; claude-code #64383 for server tools; openclaw PRs for thinking). */
export const anthropicText = {
  missing: (n: number, ids: readonly string[]) =>
    `messages.${n}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${idList(ids)}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
  notFirst: (n: number, k: number) =>
    `messages.${n}: Did not find ${k} \`tool_result\` block(s) at the beginning of this message. Messages following \`tool_use\` blocks must begin with a matching number of \`tool_result\` blocks.`,
  orphan: (n: number, m: number, id: string) =>
    `messages.${n}.content.${m}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
  serverOrphan: (n: number, m: number, kind: string, id: string) =>
    `messages.${n}.content.${m}: unexpected \`tool_use_id\` found in \`${kind}\` blocks: ${id}. Each \`${kind}\` block must have a corresponding \`server_tool_use\` block before it.`,
  outsideUser: (n: number) => `messages.${n}: \`tool_result\` blocks can only be in \`user\` messages`,
  duplicateUse: (n: number, m: number) => `messages.${n}.content.${m}: \`tool_use\` ids must be unique`,
  duplicateResult: (n: number, m: number, id: string) =>
    `messages.${n}.content.${m}: each tool_use must have a single result. Found multiple \`tool_result\` blocks with id: ${id}`,
  thinking: 'thinking or redacted_thinking blocks in the latest assistant message cannot be modified',
};

/** Check a request laid out for the Anthropic Messages API (system messages already hoisted out). */
export const checkAnthropic: ProviderCheck = (messages, units, report) => {
  const seen = new Set<string>();
  let prevUses: Set<string> | undefined; // tool_use ids of the previous wire message, if an assistant one
  for (let w = 0; w < units.length; w++) {
    const u = units[w];
    const m = messages[u.msg];
    if (u.role !== 'assistant') {
      checkResults(m, u, w, prevUses, report);
      prevUses = undefined;
      continue;
    }
    const ids: string[] = [];
    const at: number[] = [];
    const servers = new Set<string>();
    for (let j = 0; j < m.blocks.length; j++) {
      const b = m.blocks[j];
      const base = { messageIndex: u.msg, blockIndex: j, wireIndex: w, severity: 'error' } as const;
      if (b.type === 'tool_use') {
        if (seen.has(b.id))
          report({ ...base, rule: 'duplicate-id', toolUseId: b.id, error: anthropicText.duplicateUse(w, j) });
        seen.add(b.id);
        ids.push(b.id);
        at.push(j);
      } else if (b.type === 'tool_result') {
        report({ ...base, rule: 'result-outside-user', toolUseId: b.toolUseId, error: anthropicText.outsideUser(w) });
      } else if (b.type === 'server_tool_use') {
        servers.add(b.id);
      } else {
        const s = serverResult(b);
        if (s && !servers.has(s.id))
          report({
            ...base,
            rule: 'orphan-result',
            toolUseId: s.id,
            error: anthropicText.serverOrphan(w, j, s.kind, s.id),
          });
      }
    }
    if (ids.length > 0) checkAnswered(messages, units, w, ids, at, report);
    prevUses = new Set(ids);
  }
};

/** The message after an assistant message with tool_use blocks must begin with their results. Which of the
 *  two texts the API returns is inferred from the reported cases: a next message that does not begin with a
 *  tool_result gets "Did not find K" (sdk-typescript #653, claude-code #37); one that begins with results but
 *  lacks some gets "ids were found without" naming those (OpenHands PR #1450: `A[tu1,tu2]`, `U[tr1]`); no next
 *  message, or an assistant one, gets "ids were found without" for all. A request ending in an assistant
 *  tool_use is rejected the same way: the API treats it as a prefill that still needs its results. */
function checkAnswered(
  messages: readonly Message[],
  units: readonly WireUnit[],
  w: number,
  ids: readonly string[],
  at: readonly number[],
  report: (v: Draft) => void,
): void {
  const msg = units[w].msg;
  const next = units[w + 1];
  if (next?.role !== 'user') {
    const error = anthropicText.missing(w, ids);
    ids.forEach((id, i) => {
      report({
        rule: 'missing-result',
        severity: 'error',
        messageIndex: msg,
        blockIndex: at[i],
        wireIndex: w,
        toolUseId: id,
        error,
      });
    });
    return;
  }
  const nb = messages[next.msg].blocks;
  const leading = new Set<string>();
  const later = new Map<string, number>();
  let j = 0;
  for (; j < nb.length; j++) {
    const b = nb[j];
    if (b.type !== 'tool_result') break;
    leading.add(b.toolUseId);
  }
  for (; j < nb.length; j++) {
    const b = nb[j];
    if (b.type === 'tool_result' && !later.has(b.toolUseId)) later.set(b.toolUseId, j);
  }
  const rule = (id: string) => (later.has(id) ? 'results-not-first' : 'missing-result');
  if (leading.size === 0) {
    const error = anthropicText.notFirst(w + 1, ids.length);
    for (const id of ids) {
      const v: Draft = {
        rule: rule(id),
        severity: 'error',
        messageIndex: next.msg,
        wireIndex: w + 1,
        toolUseId: id,
        error,
      };
      const lb = later.get(id);
      if (lb !== undefined) v.blockIndex = lb;
      report(v);
    }
    return;
  }
  const missing = ids.filter((id) => !leading.has(id));
  if (missing.length === 0) return;
  const error = anthropicText.missing(w, missing);
  ids.forEach((id, i) => {
    if (leading.has(id)) return;
    report({
      rule: rule(id),
      severity: 'error',
      messageIndex: msg,
      blockIndex: at[i],
      wireIndex: w,
      toolUseId: id,
      error,
    });
  });
}

/** Every tool_result of a user message answers a tool_use of the message right before it, once. */
function checkResults(
  m: Message,
  u: WireUnit,
  w: number,
  prevUses: Set<string> | undefined,
  report: (v: Draft) => void,
): void {
  const here = new Set<string>();
  for (let j = u.from; j < u.to; j++) {
    const b = m.blocks[j];
    if (b.type !== 'tool_result') continue;
    const id = b.toolUseId;
    const base = { severity: 'error', messageIndex: u.msg, blockIndex: j, wireIndex: w, toolUseId: id } as const;
    if (!prevUses?.has(id)) report({ ...base, rule: 'orphan-result', error: anthropicText.orphan(w, j, id) });
    else if (here.has(id)) report({ ...base, rule: 'duplicate-id', error: anthropicText.duplicateResult(w, j, id) });
    here.add(id);
  }
}
