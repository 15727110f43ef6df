// A run's whole tool-result and event rows as tests read them: the run result carries neither (the page asks for
// them by window, EngineApi.notes), so they come from the engine's report and its event rows by id.
import type { ToolResultRow } from '../../src/analyses/report.ts';
import type { EngineApi, EventRow, RunResult } from '../../worker/api.ts';

export async function runRows(
  engine: Pick<EngineApi, 'report' | 'eventRows'>,
  r: RunResult,
): Promise<{ toolResults: ToolResultRow[]; events: EventRow[] }> {
  const report = await engine.report();
  const ids = Array.from({ length: r.notes.events }, (_, i) => i);
  const events = await engine.eventRows(r.runId, ids);
  if (!report || !events) throw new Error(`run ${r.runId} is not the engine's last`);
  return { toolResults: report.toolResults, events: events.filter((e): e is EventRow => e !== null) };
}
