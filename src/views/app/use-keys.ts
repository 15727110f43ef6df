// The keyboard map (UI.md "keyboard first"): j/k rows, [ ] requests, / search, n/N matches, t thread,
// c config, s share, ? help, Enter detail, Esc closes. With the compaction view open, j/k move between its probe
// items, Enter goes to the focused item's message, s shares the view as it is and Esc closes it. Keys typed into
// fields and editors are left alone.
import { useEffect } from 'react';
import { useStore } from '../../state/store.ts';
import { closeCompaction } from '../../state/view-history.ts';
import { cycleThread, jumpMatch, jumpRequest, moveSelection } from '../transcript/navigation.ts';
import { SEARCH_ID } from '../transcript/TranscriptToolbar.tsx';
import { useLayout } from './layout-state.ts';

function inField(t: EventTarget | null): boolean {
  return (
    t instanceof Element && t.closest('input, textarea, select, [contenteditable="true"], .monaco-editor') !== null
  );
}

function focusFirst(selector: string): void {
  const root = document.querySelector(selector);
  const el = root?.querySelector<HTMLElement>('input, select, textarea, button') ?? (root as HTMLElement | null);
  el?.focus();
  root?.scrollIntoView({ block: 'nearest' });
}

/** Move the compaction view's focused probe item by `step` (in the order they are shown). */
function moveProbe(step: number): void {
  const items = [...document.querySelectorAll<HTMLElement>('[data-testid="compaction-view"] [data-probe]')];
  if (items.length === 0) return;
  const at = items.findIndex((el) => el.dataset.focused === 'true');
  const next = items[at < 0 ? (step > 0 ? 0 : items.length - 1) : Math.max(0, Math.min(items.length - 1, at + step))];
  useStore.getState().viewActions.focusProbe(next.dataset.probe ?? null);
}

/** Keys while the compaction view is open; true when the key was one of its own. */
function compactionKey(key: string): boolean {
  switch (key) {
    case 'j':
      moveProbe(1);
      return true;
    case 'k':
      moveProbe(-1);
      return true;
    case 'Enter':
      document.querySelector<HTMLElement>('[data-testid="compaction-view"] [data-focused="true"] .cv-where')?.click();
      return true;
    case 's':
      document.querySelector<HTMLElement>('[data-testid="share-button"]')?.click();
      return true;
    case '?':
      useStore.getState().viewActions.toggleHelp();
      return true;
    default:
      // The transcript's keys would move what is behind the view: left alone while it is open.
      return key.length === 1;
  }
}

export function useKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      const s = useStore.getState();
      if (e.key === 'Escape') {
        if (document.querySelector('dialog:modal')) return; // the share dialog (or another modal) closes itself
        if (s.view.help) s.viewActions.toggleHelp(false);
        else if (inField(e.target)) (e.target as HTMLElement).blur();
        else if (s.view.compaction !== null) closeCompaction();
        else if (s.view.event !== null) {
          s.viewActions.selectEvent(null);
          s.viewActions.setDetailTab('raw');
        } else if (s.view.search) s.viewActions.setSearch('');
        return;
      }
      // Modal dialogs (share, paste) keep their keys; the compaction view is not modal (Share works over it).
      if (inField(e.target) || document.querySelector('dialog[open]:not(.compaction-view)')) return;
      if (e.key === 'Enter' && e.target instanceof Element && e.target.closest('button, a, summary, [role]')) return;
      if (s.view.compaction !== null) {
        if (compactionKey(e.key)) e.preventDefault();
        return;
      }
      let handled = true;
      switch (e.key) {
        case 'j':
          moveSelection(1);
          break;
        case 'k':
          moveSelection(-1);
          break;
        case ']':
          jumpRequest(1);
          break;
        case '[':
          jumpRequest(-1);
          break;
        case 'n':
          jumpMatch(1);
          break;
        case 'N':
          jumpMatch(-1);
          break;
        case 't':
          cycleThread(1);
          break;
        case 'T':
          cycleThread(-1);
          break;
        case '/': {
          const el = document.getElementById(SEARCH_ID);
          if (el instanceof HTMLInputElement) {
            el.focus();
            el.select();
          }
          break;
        }
        case 'c':
          useLayout.getState().openDock();
          focusFirst('[data-testid="config-panel"]');
          break;
        case 's':
          document.querySelector<HTMLElement>('[data-testid="share-button"]')?.click();
          break;
        case '?':
          s.viewActions.toggleHelp();
          break;
        case 'Enter':
          if (s.view.message === null) moveSelection(1);
          else {
            s.viewActions.selectMessage(s.view.message, true);
            if (s.view.detailTab === 'diff' && s.view.event === null) s.viewActions.setDetailTab('raw');
            document.querySelector<HTMLElement>('[data-testid="detail-pane"]')?.focus();
          }
          break;
        default:
          handled = false;
      }
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
