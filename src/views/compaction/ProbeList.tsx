import { useEffect, useRef, useState } from 'react';
import type { ProbeItem, ProbeKind, Probes } from '../../protocol/index.ts';
import { PROBE_TYPES, parseProbeKey, probeKey } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';

const KIND_LABEL: Record<ProbeKind, string> = {
  filesModified: 'Files modified',
  filesRead: 'Files read',
  errors: 'Error strings',
  identifiers: 'Identifiers',
  todos: 'Open todos',
  instructions: 'Latest instructions',
};

const TYPE_LABEL: Record<keyof typeof PROBE_TYPES, string> = {
  artifact: 'Artifact',
  recall: 'Recall',
  continuation: 'Continuation',
  decision: 'Decision',
};

const MATCH_LABEL: Record<string, string> = {
  exact: 'verbatim',
  normalized: 'normalized (case, quotes, ~ or a path suffix)',
  basename: 'by file name only (no other file of the span has it)',
  prefix: 'its first 40 characters',
};

/** A long path with its middle elided, so the file name stays readable (the title has it whole). */
function middle(p: string): string {
  return p.length <= 58 ? p : `${p.slice(0, 16)}…${p.slice(-41)}`;
}

type Props = {
  probes: Probes;
  side: 'summary' | 'anchored';
  onGo: (messageIndex: number) => void;
  /** A summary with no readable text (an encrypted remote compaction): the span's items (the anchored side's, which
   *  probes the same span), each kept or lost unknown — not "none in the span". */
  unknown?: Probes;
};

/** What one summary kept and lost, per probe type of the seeds' skill; lost items first, each linked to its message. */
export function ProbeList({ probes, side, onGo, unknown }: Props) {
  return (
    <div className="cv-probes">
      {(Object.keys(PROBE_TYPES) as (keyof typeof PROBE_TYPES)[]).map((type) => (
        <div key={type} className="cv-type">
          <div className="cv-type-title">{TYPE_LABEL[type]}</div>
          {PROBE_TYPES[type].length === 0 && (
            <div className="muted cv-none">
              Decisions have no exact anchor in a log: not probed deterministically (a model probe could ask).
            </div>
          )}
          {PROBE_TYPES[type].map((kind) => (
            <KindBlock key={kind} kind={kind} probes={probes} side={side} onGo={onGo} unknown={unknown} />
          ))}
        </div>
      ))}
    </div>
  );
}

/** Items shown per kind before "show all". */
const SHOWN = 8;

/** Where the focused item sits in a kind's list (lost first, then kept), when it is of this side and kind. */
function focusedAt(focus: string | null, side: string, kind: ProbeKind, lost: number): number {
  const f = focus === null ? null : parseProbeKey(focus);
  if (!f || f.side !== side || f.kind !== kind) return -1;
  return f.kept ? lost + f.index : f.index;
}

function KindBlock({ kind, probes, side, onGo, unknown }: { kind: ProbeKind } & Props) {
  if (unknown) {
    const n = unknown[kind].kept.length + unknown[kind].lost.length;
    return (
      <div className="cv-kind" data-testid="probe-kind" data-kind={kind} data-side={side} data-unknown="true">
        <div className="cv-kind-head">
          <span>{KIND_LABEL[kind]}</span>
          <span className="num muted">
            {n === 0 ? 'none in the span' : `unknown: ${n} in the span, the summary unreadable`}
          </span>
        </div>
      </div>
    );
  }
  return <KnownKind kind={kind} probes={probes} side={side} onGo={onGo} />;
}

function KnownKind({ kind, probes, side, onGo }: { kind: ProbeKind } & Props) {
  const { kept, lost } = probes[kind];
  const total = kept.length + lost.length;
  const focus = useStore((s) => s.view.probe);
  const at = focusedAt(focus, side, kind, lost.length);
  const [all, setAll] = useState(at >= SHOWN);
  // A focused item past the first few (a link, Back, j/k) shows the whole list.
  useEffect(() => {
    if (at >= SHOWN) setAll(true);
  }, [at]);
  const items = [
    ...lost.map((it, i) => ({ it, kept: false, key: probeKey({ side, kind, kept: false, index: i }) })),
    ...kept.map((it, i) => ({ it, kept: true, key: probeKey({ side, kind, kept: true, index: i }) })),
  ];
  const shown = all ? items : items.slice(0, SHOWN);
  return (
    <div className="cv-kind" data-testid="probe-kind" data-kind={kind} data-side={side}>
      <div className="cv-kind-head">
        <span>{KIND_LABEL[kind]}</span>
        <span className="num muted">
          {total === 0 ? 'none in the span' : `kept ${kept.length} of ${total}`}
          {lost.length > 0 && <span className="cv-lost-count"> · lost {lost.length}</span>}
        </span>
      </div>
      {total > 0 && (
        <ul className="cv-items">
          {shown.map(({ it, kept: k, key }) => (
            <Item key={key} probe={key} item={it} kind={kind} kept={k} onGo={onGo} focused={key === focus} />
          ))}
          {items.length > SHOWN && (
            <li>
              <button type="button" className="link cv-more" onClick={() => setAll(!all)}>
                {all ? 'show fewer' : `show all ${items.length} (${items.length - SHOWN} more)`}
              </button>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}

function Item({
  item,
  probe,
  kind,
  kept,
  focused,
  onGo,
}: {
  item: ProbeItem;
  probe: string;
  kind: ProbeKind;
  kept: boolean;
  focused: boolean;
  onGo: (i: number) => void;
}) {
  const where = `message ${item.messageIndex}${item.line > 0 ? ` · line ${item.line}` : ''}${item.tool ? ` · ${item.tool}` : ''}`;
  const ref = useRef<HTMLLIElement>(null);
  const focusProbe = useStore((s) => s.viewActions.focusProbe);
  // The focused item is brought into view (a link or Back restores it) and takes the keyboard focus.
  useEffect(() => {
    if (!focused || !ref.current) return;
    ref.current.scrollIntoView({ block: 'nearest' });
    if (!ref.current.contains(document.activeElement)) ref.current.focus({ preventScroll: true });
  }, [focused]);
  return (
    <li
      ref={ref}
      className={`cv-item ${kept ? 'cv-kept' : 'cv-lost'}${focused ? ' cv-focused' : ''}`}
      data-testid="probe-item"
      data-kind={kind}
      data-kept={String(kept)}
      data-side={probe.slice(0, probe.indexOf('.'))}
      data-probe={probe}
      data-focused={String(focused)}
      data-message-index={item.messageIndex}
      tabIndex={focused ? 0 : -1}
      aria-current={focused ? 'true' : undefined}
      onClick={() => focusProbe(probe)}
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return;
        e.preventDefault();
        onGo(item.messageIndex);
      }}
      onFocus={() => {
        if (!focused) focusProbe(probe);
      }}
    >
      <span className="cv-mark" aria-hidden="true">
        {kept ? '✓' : '✗'}
      </span>
      <span className="cv-text mono" title={item.text}>
        {kind === 'filesModified' || kind === 'filesRead' ? middle(item.text) : item.text}
      </span>
      {kept && item.match && item.match !== 'exact' && (
        <span className="cv-match muted" title={MATCH_LABEL[item.match]}>
          {item.match}
        </span>
      )}
      <button
        type="button"
        className="link cv-where num"
        title={`Show where it came from: ${where}`}
        tabIndex={-1}
        onClick={(e) => {
          e.stopPropagation();
          onGo(item.messageIndex);
        }}
      >
        m{item.messageIndex}
      </button>
    </li>
  );
}
