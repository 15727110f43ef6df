// View-local state of the transcript that no other slice needs: whether search filters or only
// highlights, and which messages the list currently shows (the heatmap draws that window).
import { create } from 'zustand';

export type TranscriptUi = {
  filter: boolean;
  /** First and last message index visible in the list (inclusive), or null before the first layout. */
  viewport: { first: number; last: number } | null;
  setFilter: (on: boolean) => void;
  setViewport: (first: number, last: number) => void;
};

export const useTranscriptUi = create<TranscriptUi>()((set, get) => ({
  filter: false,
  viewport: null,
  setFilter: (on) => set({ filter: on }),
  setViewport: (first, last) => {
    const v = get().viewport;
    if (!v || v.first !== first || v.last !== last) set({ viewport: { first, last } });
  },
}));
