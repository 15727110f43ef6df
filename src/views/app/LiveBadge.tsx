import { useEffect, useState } from 'react';
import { useFollow } from '../../state/follow.ts';

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s ago` : s < 3600 ? `${Math.floor(s / 60)} min ago` : `${Math.floor(s / 3600)} h ago`;
}

/** While a session is followed: "live", and when its last line arrived (or "paused" while the tab is hidden). */
export function LiveBadge() {
  const state = useFollow((s) => s.state);
  const lastLineAt = useFollow((s) => s.lastLineAt);
  const waiting = useFollow((s) => s.waiting);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (state !== 'live') return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [state]);
  if (state === 'off') return null;
  const last = lastLineAt === null ? 'following' : `last line ${ago(now - lastLineAt)}`;
  return (
    <span
      className={`live-badge ${state}`}
      data-testid="live-badge"
      data-state={state}
      data-last-line={lastLineAt ?? undefined}
      data-waiting={waiting}
      title={
        state === 'paused'
          ? 'Following paused while the tab is hidden; resumes when it is shown'
          : `Re-read as the file grows (once a second)${waiting > 0 ? `; ${waiting} bytes of a line without its end yet` : ''}`
      }
    >
      {state === 'live' ? '● live' : '❚❚ paused'} · {last}
    </span>
  );
}
