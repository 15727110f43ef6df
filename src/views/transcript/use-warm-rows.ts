// New rows are shown once the characters of their first screen have fallback fonts (warmGlyphs in
// font-warmup.ts): until then the rows shown before stay (or none), so the frame that swaps them in lays out
// text without also searching fonts character by character (a 20 MB log with 10% Japanese: 45 ms of it).
import { useEffect, useState } from 'react';
import type { Row } from '../../protocol/index.ts';
import { warmGlyphs } from '../app/font-warmup.ts';
import { visibleText } from '../common/visible-text.ts';

/** Rows before and after the first visible one whose text is warmed: a screen and the overscan. */
const BEFORE = 20;
const AFTER = 80;

export function useWarmRows(rows: readonly Row[] | undefined, first: number): readonly Row[] | undefined {
  const [ready, setReady] = useState(rows);
  // biome-ignore lint/correctness/useExhaustiveDependencies: warmed per new rows; the position is read then
  useEffect(() => (rows === ready ? undefined : warm(rows, first, setReady)), [rows]);
  return ready;
}

/** Warm the text near `first` of `rows`, then show them; returns the cancel. Made outside the hook: a cleanup
 *  made in the render keeps that render's scope alive until the next new rows — the rows shown before these,
 *  a whole thread's (40,000 rows of a 20k-request session) held beside the new ones. */
function warm(rows: readonly Row[] | undefined, first: number, show: (r: readonly Row[] | undefined) => void) {
  let live = true;
  const near = rows ? rows.slice(Math.max(0, first - BEFORE), first + AFTER) : [];
  const texts = near.flatMap((r) => [visibleText(r.preview), ...r.tools]);
  void warmGlyphs(texts, 'c-preview').then(() => {
    if (live) show(rows);
  });
  return () => {
    live = false;
  };
}
