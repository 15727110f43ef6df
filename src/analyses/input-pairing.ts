// Pairing problems of the recorded input, without tokens (SPEC §5.1, stage `input`): the same walk the replay
// does over each request's recorded input — appended messages checked in a window, a reset checked whole, each
// violation reported once — so a folder scan counts what `analyze` reports at stage `input` at a fraction of the
// cost (no tokenizing, no pipeline).
import type { Message, Thread, Transcript } from '../model/transcript.ts';
import { FLAGS_DUPLICATES, type PairingViolation, type Provider, validatePairing } from '../pairing/validate.ts';
import { InputBuilder, type InputView, inputDelta, type ReplayMode } from '../replay/inputs.ts';
import { InputRepeats, validateAppended } from '../replay/pairing-window.ts';

const reportKey = (v: PairingViolation, messageIndex: number) =>
  `${v.stage}|${v.rule}|${v.toolUseId ?? ''}|${v.toolUseId ? '' : messageIndex}`;

function addUseIds(messages: readonly Message[], into: Set<string>): boolean {
  let repeated = false;
  for (const m of messages)
    for (const b of m.blocks) {
      if (b.type !== 'tool_use') continue;
      if (into.has(b.id)) repeated = true;
      into.add(b.id);
    }
  return repeated;
}

/** The input-stage violations of one thread's requests, each reported once (as the replay reports them). */
function threadInputPairing(thread: Thread, provider: Provider, mode: ReplayMode): PairingViolation[] {
  const inputs = new InputBuilder(thread, mode);
  const reported = new Set<string>();
  const out: PairingViolation[] = [];
  const repeats = new InputRepeats();
  const duplicateReported = FLAGS_DUPLICATES[provider]
    ? (id: string) => reported.has(`input|duplicate-id|${id}|`)
    : () => true;
  const knownDuplicate = (v: PairingViolation) =>
    v.rule === 'duplicate-id' && v.toolUseId !== undefined && reported.has(reportKey(v, -1));
  const report = (list: readonly PairingViolation[], validated: readonly Message[], offset: number) => {
    for (const v of list) {
      const messageIndex = validated[offset + v.messageIndex]?.index ?? -1;
      const key = reportKey(v, messageIndex);
      if (reported.has(key)) continue;
      reported.add(key);
      out.push({ ...v, messageIndex, position: v.messageIndex });
    }
  };
  let prev: InputView | undefined;
  let uses = new Set<string>();
  for (const r of thread.requests) {
    const view = inputs.view(r);
    const delta = inputDelta(prev, view, r.boundary === 'agent-compaction');
    const ctx = { thread: thread.id, request: r.index, provider, stage: 'input' };
    if (delta.kind === 'append') {
      const appended = view.array.slice(view.start + delta.from, view.end);
      const full = addUseIds(appended, uses);
      repeats.append(appended, duplicateReported);
      const settled = repeats.settled(duplicateReported);
      const found = validateAppended(view, delta.from, ctx, full && !settled, settled ? knownDuplicate : undefined);
      report(found, view.array, view.start);
    } else {
      const raw = view.array.slice(view.start, view.end);
      uses = new Set();
      addUseIds(raw, uses);
      report(validatePairing(raw, ctx), raw, 0);
      repeats.reset(raw, duplicateReported);
    }
    prev = view;
  }
  return out;
}

/** Every thread's input-stage violations, in thread order. */
export function inputPairing(t: Transcript, provider: Provider, mode: ReplayMode = 'recorded'): PairingViolation[] {
  return t.threads.flatMap((th) => threadInputPairing(th, provider, mode));
}
