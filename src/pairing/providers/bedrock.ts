// AWS Bedrock Converse pairing rules (SPEC §5.1, peers-and-bugs §3) with Bedrock's own error texts.
// toolUse blocks are answered by toolResult blocks in the next (user) message, never more results than
// uses; an error-status result needs content; some models (Llama 4 …) refuse text and tool results in
// one turn. For Claude models Bedrock passes the Anthropic texts through, used where Bedrock has none.
import type { ToolResultBlock } from '../../model/transcript.ts';
import { anthropicText } from './anthropic.ts';
import { type Draft, idList, isEmptyContent, type ProviderCheck, reportReusedCalls, usesIn } from './common.ts';

/** Bedrock's texts (Curie #16, strands #1223, quarkus-langchain4j #1983, aws language-servers #1235). */
const bedrockText = {
  exceeds: (n: number) =>
    `The number of toolResult blocks at messages.${n}.content exceeds the number of toolUse blocks of previous turn.`,
  expected: (n: number, ids: readonly string[]) =>
    `Expected toolResult blocks at messages.${n}.content for the following Ids: ${idList(ids)}`,
  mixedResult: (n: number) =>
    `messages.${n}.content: Conversation blocks and tool result blocks cannot be provided in the same turn.`,
  emptyError: (n: number, m: number) =>
    `The content field at messages.${n}.content.${m}.toolResult cannot be empty when status value is error.`,
};

/** Check a request laid out for Converse (system hoisted to the top-level `system`). */
export const checkBedrock: ProviderCheck = (messages, units, report) => {
  const seen = new Set<string>();
  let prevUses: string[] = []; // toolUse ids of the previous wire message
  for (let w = 0; w < units.length; w++) {
    const u = units[w];
    const m = messages[u.msg];
    if (u.role === 'assistant') {
      const { ids, blocks } = usesIn(m, u);
      reportReusedCalls({ ids, blocks }, seen, u.msg, w, report);
      for (let j = u.from; j < u.to; j++) {
        const b = m.blocks[j];
        // Claude on Bedrock returns the Anthropic text; Bedrock's own text for other models is not documented.
        if (b.type === 'tool_result')
          report({
            rule: 'result-outside-user',
            severity: 'error',
            messageIndex: u.msg,
            blockIndex: j,
            wireIndex: w,
            toolUseId: b.toolUseId,
            error: anthropicText.outsideUser(w),
          });
      }
      if (ids.length > 0) checkNext(w, ids, blocks);
      prevUses = ids;
      continue;
    }
    let count = 0;
    let extra = -1; // first result with no toolUse in the previous turn
    for (let j = u.from; j < u.to; j++) {
      const b = m.blocks[j];
      if (b.type !== 'tool_result') continue;
      count++;
      if (extra < 0 && !prevUses.includes(b.toolUseId)) extra = j;
      if (b.isError && isEmptyContent(b.content))
        report({
          rule: 'empty-error-result',
          severity: 'error',
          messageIndex: u.msg,
          blockIndex: j,
          wireIndex: w,
          toolUseId: b.toolUseId,
          error: bedrockText.emptyError(w, j),
        });
    }
    if (count > prevUses.length) {
      const v: Draft = {
        rule: 'count-mismatch',
        severity: 'error',
        messageIndex: u.msg,
        wireIndex: w,
        error: bedrockText.exceeds(w),
      };
      const b = extra >= 0 ? m.blocks[extra] : undefined;
      if (b?.type === 'tool_result') {
        v.blockIndex = extra;
        v.toolUseId = b.toolUseId;
      }
      report(v);
    }
    // Only some models refuse this (Llama 4 and others), so it is a warning; Claude accepts text after results.
    if (count > 0 && count < u.to - u.from)
      report({
        rule: 'mixed-content-turn',
        severity: 'warning',
        messageIndex: u.msg,
        wireIndex: w,
        error: bedrockText.mixedResult(w),
      });
    prevUses = [];
  }

  /** The next message must hold a result for each toolUse, at its start (Claude models check the order). */
  function checkNext(w: number, ids: readonly string[], at: readonly number[]): void {
    const u = units[w];
    const next = units[w + 1];
    if (!next) {
      // Nothing follows (a trailing assistant toolUse): Bedrock's own text names the next message, which
      // does not exist; the Claude model's text passes through instead (inferred, like for Anthropic).
      const error = anthropicText.missing(w, ids);
      ids.forEach((id, i) => {
        report({
          rule: 'missing-result',
          severity: 'error',
          messageIndex: u.msg,
          blockIndex: at[i],
          wireIndex: w,
          toolUseId: id,
          error,
        });
      });
      return;
    }
    const nb = messages[next.msg].blocks;
    const found = new Map<string, number>();
    if (next.role === 'user')
      for (let j = 0; j < nb.length; j++) {
        const b = nb[j];
        if (b.type === 'tool_result' && !found.has(b.toolUseId)) found.set(b.toolUseId, j);
      }
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      const error = bedrockText.expected(w + 1, missing);
      for (const id of missing)
        report({
          rule: 'missing-result',
          severity: 'error',
          messageIndex: next.msg,
          wireIndex: w + 1,
          toolUseId: id,
          error,
        });
    }
    if (found.size > 0 && nb[0]?.type !== 'tool_result') {
      let first = nb.length;
      for (const j of found.values()) first = Math.min(first, j);
      report({
        rule: 'results-not-first',
        severity: 'error',
        messageIndex: next.msg,
        blockIndex: first,
        wireIndex: w + 1,
        toolUseId: (nb[first] as ToolResultBlock).toolUseId,
        error: anthropicText.notFirst(w + 1, ids.length),
      });
    }
  }
};
