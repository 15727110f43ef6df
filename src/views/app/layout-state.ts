// Shell layout state no other slice needs: the height of the bottom dock (config, cache breaks and pairing),
// resized by its splitter and opened by the `c` key, and which of its right-hand tabs shows (null: pairing
// when the run has pairing problems, else the breaks).
import { create } from 'zustand';

export const DOCK_MIN = 34;
/** About a sixth of the window: the header lines of both panels and their first rows. */
export const DOCK_DEFAULT =
  typeof window === 'undefined' ? 160 : Math.round(Math.min(260, Math.max(120, window.innerHeight * 0.15)));

type DockTab = 'breaks' | 'pairing';

export type Layout = {
  dock: number;
  dockTab: DockTab | null;
  setDock: (h: number) => void;
  openDock: () => void;
  setDockTab: (t: DockTab | null) => void;
  /** Show the breaks table (the dock opened far enough to read its first rows). */
  showBreaks: () => void;
};

export const useLayout = create<Layout>()((set, get) => ({
  dock: DOCK_DEFAULT,
  setDock: (h) => set({ dock: Math.round(Math.max(DOCK_MIN, Math.min(window.innerHeight * 0.7, h))) }),
  openDock: () => {
    if (get().dock < 120) set({ dock: Math.max(DOCK_DEFAULT, Math.round(window.innerHeight * 0.4)) });
  },
  dockTab: null,
  setDockTab: (t) => set({ dockTab: t }),
  showBreaks: () => {
    set({ dockTab: 'breaks' });
    if (get().dock < 150) set({ dock: Math.round(Math.min(window.innerHeight * 0.4, 260)) });
  },
}));
