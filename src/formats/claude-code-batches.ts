// Claude Code 2.x writes one line per content block of an API response (all with the response's message.id)
// and hangs each tool_result line off the tool_use line it answers (`sourceToolAssistantUUID`); the next
// assistant line hangs off the last result. A parallel batch is therefore a fan of sibling branches, and the
// parentUuid walk from the leaf passes through one of them only. This puts the branch back together as Claude
// Code sent it: every line of a response met on the walk, and the results of its calls that the walk missed.
// Results keep the order Claude Code wrote them in (file order). A real rewind leaves other responses (other
// message ids) behind, so those stay off the branch.
import { arr, isObject, type JsonObject, obj, str } from '../lib/json.ts';

/** What the reassembly needs of a line: its kind (`user`, `assistant`, …), chain and JSON. */
export type BatchLine = { kind: string; sidechain: boolean; o: JsonObject };

/** Identity of the API response an assistant line belongs to: message.id + requestId (undefined without). */
export function responseKeyOf(o: JsonObject): string | undefined {
  const messageId = str(obj(o.message)?.id);
  const requestId = str(o.requestId);
  if (messageId === undefined && requestId === undefined) return undefined;
  return `${messageId ?? ''}|${requestId ?? ''}`;
}

function blocksOf(o: JsonObject): JsonObject[] {
  return (arr(obj(o.message)?.content) ?? []).filter(isObject);
}

function push<K>(map: Map<K, number[]>, key: K, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

/**
 * The lines of a branch (indices into `lines`, root first; `parents[i]` is the index of line i's parent or −1)
 * with each response's sibling lines and the results of its tool calls gathered in. A response's batch is what
 * hangs off its lines on the walk: lines of the same response, results of its calls, and the attachment,
 * progress and system lines between them (a line elsewhere with the same ids is not part of it). Lines the walk
 * passed keep their order; a response's lines are placed where the walk first met it (file order); when some
 * of its results are off the walk, all of them follow its lines (file order), each with the attachment lines
 * that hang off it (a result's PostToolUse hook output), else they stay where the walk has them.
 */
export function withBatches(
  lines: readonly BatchLine[],
  parents: readonly number[],
  path: readonly number[],
): number[] {
  const onPath = new Set(path);
  const children = new Map<number, number[]>();
  parents.forEach((p, i) => {
    if (p >= 0) push(children, p, i);
  });
  const out: number[] = [];
  const placed = new Set<number>();
  const place = (i: number) => {
    if (placed.has(i)) return;
    placed.add(i);
    out.push(i);
  };
  for (const i of path) {
    if (placed.has(i)) continue;
    const line = lines[i];
    const key = line.kind === 'assistant' ? responseKeyOf(line.o) : undefined;
    if (key === undefined) {
      place(i);
      continue;
    }
    const { group, results, riders, prompts } = batchOf(lines, children, i, key);
    // A prompt on the walk that hangs off the response resumed it: its unanswered calls off the walk were aborted.
    const resumed = prompts.some((p) => onPath.has(p));
    for (const g of group) if (onPath.has(g) || !resumed || !abandonedCall(lines[g], results, lines)) place(g);
    // A batch the walk passes whole keeps the walk's order; one it passes in part is placed whole, in file order.
    if (results.some((r) => !onPath.has(r))) for (const r of [...results, ...riders].sort((a, b) => a - b)) place(r);
  }
  return out;
}

/**
 * A response line the walk left whose tool calls no result answers, in a response a prompt on the walk resumed: the
 * turn the user aborted. Resumed with a prompt that hangs off an earlier line of the response (skipping the pending
 * tool_use line), Claude Code sends the chain it walks, without that call — so it is no call of the branch. A
 * parallel call the walk misses is one whose result is in the batch, or still to come (no prompt resumed it): it
 * stays.
 */
function abandonedCall(l: BatchLine, results: readonly number[], lines: readonly BatchLine[]): boolean {
  const calls = blocksOf(l.o).flatMap((b) => (b.type === 'tool_use' && typeof b.id === 'string' ? [b.id] : []));
  if (calls.length === 0) return false;
  const answered = new Set(
    results.flatMap((r) => blocksOf(lines[r].o).flatMap((b) => (b.type === 'tool_result' ? [str(b.tool_use_id)] : []))),
  );
  return calls.every((c) => !answered.has(c));
}

/** The lines of the response `key` reachable from line `start` through the batch, its result lines, and the
 *  attachment lines met between them. */
function batchOf(lines: readonly BatchLine[], children: ReadonlyMap<number, number[]>, start: number, key: string) {
  const calls = new Set<string>();
  const group: number[] = [];
  const results: number[] = [];
  const riders: number[] = [];
  const prompts: number[] = [];
  const seen = new Set<number>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const i = queue.shift() as number;
    const l = lines[i];
    if (l.kind === 'assistant') {
      if (responseKeyOf(l.o) !== key) continue; // the next response: the batch ends here
      group.push(i);
      for (const b of blocksOf(l.o)) if (b.type === 'tool_use' && typeof b.id === 'string') calls.add(b.id);
    } else if (l.kind === 'user') {
      const answers = blocksOf(l.o).some((b) => b.type === 'tool_result' && calls.has(str(b.tool_use_id) ?? ''));
      if (!answers) {
        prompts.push(i); // a prompt: the batch ends here
        continue;
      }
      results.push(i);
    } else if (l.kind === 'attachment') riders.push(i);
    for (const c of children.get(i) ?? []) {
      if (seen.has(c)) continue;
      seen.add(c);
      queue.push(c);
    }
  }
  return { group: group.sort((a, b) => a - b), results: results.sort((a, b) => a - b), riders, prompts };
}
