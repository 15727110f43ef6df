// Vertical layout of the cache timeline chart (px): the break lanes (observed ▼ above simulated ◆, each its own
// row so neither hides the other), the stacked context chart, the observed and simulated cache rows under it, and
// the axis. Shared by the chart, its markers and its column slices.
export const PAD_L = 80;
export const PAD_R = 112;
/** The two marker rows: observed breaks in [0, ROW_H), simulated in [ROW_H, 2·ROW_H). */
export const LANE_ROW = 13;
export const LANE = 2 * LANE_ROW + 2;
export const ROW = 10;
const ROW_GAP = 4;
export const AXIS = 18;

/** The rows under the lanes for a chart `ch` px high: the cache rows' tops and the whole height. */
export type ChartRows = { ch: number; yObs: number; ySim: number; height: number };

export function chartRows(ch: number): ChartRows {
  const yObs = LANE + ch + 8;
  const ySim = yObs + ROW + ROW_GAP;
  return { ch, yObs, ySim, height: ySim + ROW + AXIS };
}

/** The chart's height for a window this tall: shorter on a laptop screen, so the transcript keeps its rows. */
export function chartHeightFor(windowHeight: number): number {
  return windowHeight < 900 ? 84 : windowHeight < 1050 ? 108 : 124;
}

/** Centre y of a marker row. */
export function laneY(source: 'observed' | 'simulated'): number {
  return source === 'observed' ? LANE_ROW / 2 : LANE_ROW + LANE_ROW / 2;
}
