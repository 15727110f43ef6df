// A virtualized list of equal-height rows (@tanstack/react-virtual): the scroll element's ref and the
// virtualizer, set up the one way the long lists use them (the thread list, the sessions table).
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

/** `count` rows of `height` px in the element `parent` refers to, `overscan` rows drawn beyond the view. */
export function useFixedRows(count: number, height: number, overscan = 20) {
  const parent = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count,
    getScrollElement: () => parent.current,
    estimateSize: () => height,
    overscan,
  });
  return { parent, v };
}
