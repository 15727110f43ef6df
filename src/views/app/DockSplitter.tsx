import { useRef } from 'react';
import { DOCK_DEFAULT, DOCK_MIN, useLayout } from './layout-state.ts';

/** The handle above the bottom dock: drag to resize, double-click (or Enter) to fold and unfold. */
export function DockSplitter() {
  const dock = useLayout((s) => s.dock);
  const setDock = useLayout((s) => s.setDock);
  const drag = useRef<{ y: number; h: number } | null>(null);
  const last = useRef(DOCK_DEFAULT);
  const toggle = () => {
    if (dock > DOCK_MIN + 10) {
      last.current = dock;
      setDock(DOCK_MIN);
    } else setDock(last.current);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable window splitter (WAI-ARIA), not an <hr>
    <div
      className="dock-splitter"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the config and pairing panels"
      aria-valuenow={dock}
      aria-valuemin={DOCK_MIN}
      tabIndex={0}
      title="Drag to resize · double-click to fold"
      data-testid="dock-splitter"
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { y: e.clientY, h: dock };
      }}
      onPointerMove={(e) => {
        if (drag.current) setDock(drag.current.h + drag.current.y - e.clientY);
      }}
      onPointerUp={() => {
        drag.current = null;
      }}
      onDoubleClick={toggle}
      onKeyDown={(e) => {
        if (e.key === 'ArrowUp') setDock(dock + 24);
        else if (e.key === 'ArrowDown') setDock(dock - 24);
        else if (e.key === 'Enter') toggle();
        else return;
        e.preventDefault();
      }}
    />
  );
}
