import type { ToolResultRow } from '../../protocol/index.ts';
import { tierText } from './marks.ts';

/** A tool result's tier: 3 kept (neutral), 2 compressed (amber), 1 stub (muted red). */
export function TierBadge({ result }: { result: ToolResultRow }) {
  if (result.tier === null) return null;
  return (
    <span
      data-testid="tier-badge"
      data-tier={result.tier}
      data-tool-use-id={result.toolUseId}
      className={`tier-badge tier-${result.tier}`}
      title={`${result.tool} ${result.toolUseId}: ${tierText(result)}`}
    >
      {result.tier}
    </span>
  );
}
