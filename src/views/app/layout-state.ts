// Shell layout state no other slice needs: the height of the bottom dock (config and pairing panels),
// resized by its splitter and opened by the `c` key.
import { create } from 'zustand';

export const DOCK_MIN = 34;
/** About a sixth of the window: the header lines of both panels and their first rows. */
export const DOCK_DEFAULT =
  typeof window === 'undefined' ? 160 : Math.round(Math.min(260, Math.max(120, window.innerHeight * 0.17)));

export type Layout = { dock: number; setDock: (h: number) => void; openDock: () => void };

export const useLayout = create<Layout>()((set, get) => ({
  dock: DOCK_DEFAULT,
  setDock: (h) => set({ dock: Math.round(Math.max(DOCK_MIN, Math.min(window.innerHeight * 0.7, h))) }),
  openDock: () => {
    if (get().dock < 120) set({ dock: Math.max(DOCK_DEFAULT, Math.round(window.innerHeight * 0.4)) });
  },
}));
