// Vertical layout of the cache timeline chart (px): the break lane, the stacked context chart, the observed
// and simulated cache rows under it, and the axis. Shared by the chart and its column slices.
export const PAD_L = 80;
export const PAD_R = 112;
export const LANE = 18;
export const CH = 132;
export const ROW = 10;
const ROW_GAP = 4;
export const AXIS = 18;
export const Y_OBS = LANE + CH + 8;
export const Y_SIM = Y_OBS + ROW + ROW_GAP;
export const HEIGHT = Y_SIM + ROW + AXIS;
