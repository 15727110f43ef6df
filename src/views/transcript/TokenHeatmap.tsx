import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { threadRows, useStore } from '../../state/store.ts';
import { useColorScheme } from '../app/use-color-scheme.ts';
import { fmtTokens } from '../common/format.ts';
import { heat } from '../common/heat.ts';
import { visibleText } from '../common/visible-text.ts';
import { drawHeatmap, type HeatmapStyle, positionAt } from './draw-heatmap.ts';
import { pairingByRow } from './row-notes.ts';
import { useTranscriptUi } from './transcript-ui.ts';
import { useWindowNotes } from './use-notes.ts';

function cssVar(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

/** Theme colors read once per scheme (getComputedStyle forces a style recalculation). */
const styles = new Map<string, HeatmapStyle>();
function styleFor(scheme: string): HeatmapStyle {
  let st = styles.get(scheme);
  if (!st) {
    const root = document.documentElement;
    st = {
      bg: cssVar(root, '--bg2', '#f5f6f8'),
      frame: cssVar(root, '--fg', '#1d2430'),
      frameFill: scheme === 'dark' ? 'rgba(255,255,255,0.16)' : 'rgba(255,255,255,0.35)',
      selection: cssVar(root, '--accent', '#2f6fde'),
      pairing: cssVar(root, '--danger', '#c0392b'),
    };
    styles.set(scheme, st);
  }
  return st;
}

/** The whole thread as a strip colored by tokens per message; the frame is the list's viewport. */
export function TokenHeatmap() {
  const {
    rows: latestRows,
    selected,
    result: latest,
    thread,
  } = useStore(
    useShallow((s) => ({
      rows: threadRows(s),
      selected: s.view.message,
      result: s.run.result,
      thread: s.view.thread,
    })),
  );
  // Big results render in a background (interruptible) pass, so no single main-thread task grows long.
  const result = useDeferredValue(latest);
  const rows = useDeferredValue(latestRows);
  const select = useStore((s) => s.viewActions.selectMessage);
  const viewport = useTranscriptUi((s) => s.viewport);
  const scheme = useColorScheme();
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  const [hover, setHover] = useState<{ i: number; x: number; y: number } | null>(null);
  const pairing = pairingByRow(result, thread, rows);
  const marked = useMemo(() => new Set(pairing.keys()), [pairing]);

  useEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    // Draw in a task of its own, neither inside React's commit nor in the rendering frame's callbacks: the
    // frame that lays out a freshly loaded thread is long enough without the strip of 10,000+ messages.
    const task = setTimeout(() => {
      const c = canvasRef.current;
      const ctx = c?.getContext('2d');
      if (!c || !ctx || size.w === 0 || size.h === 0) return;
      const dpr = window.devicePixelRatio || 1;
      const w = Math.round(size.w * dpr);
      const h = Math.round(size.h * dpr);
      // Setting a canvas's size reallocates it: only when it changed (scrolling redraws the frame often).
      if (c.width !== w || c.height !== h) {
        c.width = w;
        c.height = h;
      }
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      drawHeatmap(ctx, size.w, size.h, rows ?? [], { style: styleFor(scheme), viewport, selected, marked });
    }, 0);
    return () => clearTimeout(task);
  }, [rows, size, viewport, selected, marked, scheme]);

  const n = rows?.length ?? 0;
  const at = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return positionAt(e.clientY - r.top, n, r.height);
  };
  const hovered = hover !== null ? rows?.[hover.i] : undefined;
  const max = useMemo(() => (rows ?? []).reduce((m, r) => Math.max(m, r.tokens), 0), [rows]);
  // The hovered message's tiers: a window of one message, shown once this run's arrives.
  const at1 = hovered ? hovered.index : 0;
  const win = useWindowNotes(hovered ? result?.runId : undefined, thread, at1, at1 + 1);
  const tiers =
    hovered && win.current && win.notes
      ? win.notes.results.filter((r) => r.messageIndex === hovered.index && r.tier !== null).map((r) => r.tier)
      : [];
  const hoveredPairing = hovered ? (pairing.get(hovered.index) ?? []) : [];
  return (
    <div className="heatmap-panel">
      <div className="panel-title">
        Tokens
        <span className="panel-hint">per message · click to jump</span>
      </div>
      {max > 0 && (
        <div
          className="heat-legend"
          data-testid="heatmap-legend"
          title="Colour of each message by its tokens, on a log scale (the same scale as the rows' bars)"
        >
          <span className="num">1</span>
          <i
            style={{
              background: `linear-gradient(to right, ${[0, 0.25, 0.5, 0.75, 1].map((t) => heat(t)).join(', ')})`,
            }}
          />
          <span className="num">{fmtTokens(max)}</span>
        </div>
      )}
      <div ref={wrapRef} className="token-heatmap" data-testid="token-heatmap" data-count={n}>
        {hovered && hover && (
          <div
            className="heat-hover"
            data-testid="heatmap-hover"
            style={{ top: hover.y, left: hover.x + 14 }}
            role="tooltip"
          >
            <div>
              <strong className="num">#{hovered.index}</strong> {hovered.role}
              {hovered.tools.length > 0 &&
                ` · ${hovered.role === 'user' ? '↳ ' : ''}${visibleText(hovered.tools.join(', '))}`}
            </div>
            <div className="num">
              {hovered.exact ? '' : '≈'}
              {fmtTokens(hovered.tokens)} tokens ({hovered.exact ? 'counted' : 'estimated'})
              {tiers.length > 0 ? ` · tier ${tiers.join('/')}` : ''}
              {hoveredPairing.length > 0 ? ' · pairing problem' : ''}
            </div>
            <div className="muted heat-preview">{visibleText(hovered.preview.slice(0, 90))}</div>
          </div>
        )}
        <canvas
          ref={canvasRef}
          style={{ width: size.w, height: size.h }}
          aria-label="Token heatmap: click to jump to a message"
          onPointerDown={(e) => {
            if (n === 0) return;
            e.currentTarget.setPointerCapture(e.pointerId);
            select(rows?.[at(e)]?.index ?? 0, true);
          }}
          onPointerMove={(e) => {
            if (n === 0) return;
            const i = at(e);
            setHover({ i, x: e.currentTarget.getBoundingClientRect().right, y: e.clientY });
            if (e.buttons & 1) select(rows?.[i]?.index ?? i, true);
          }}
          onPointerLeave={() => setHover(null)}
        />
      </div>
    </div>
  );
}
