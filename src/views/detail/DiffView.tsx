import { useEffect, useRef } from 'react';
import type { Scheme } from '../app/use-color-scheme.ts';
import { monaco } from '../common/monaco.ts';

function languageOf(s: string): string {
  const t = s.trimStart();
  return t.startsWith('{') || t.startsWith('[') ? 'json' : 'plaintext';
}

/** Monaco's diff editor: a block before and after one rewrite; disposed with the component. */
export function DiffView({ before, after, scheme }: { before: string; after: string; scheme: Scheme }) {
  const host = useRef<HTMLDivElement>(null);
  const ed = useRef<ReturnType<typeof monaco.editor.createDiffEditor> | null>(null);
  useEffect(() => {
    if (!host.current) return;
    const editor = monaco.editor.createDiffEditor(host.current, {
      readOnly: true,
      originalEditable: false,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      wordWrap: 'on',
      diffWordWrap: 'on',
      fontSize: 12,
      lineHeight: 18,
      renderSideBySide: false,
      useInlineViewWhenSpaceIsLimited: true,
      hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 4, revealLineCount: 20 },
      renderOverviewRuler: false,
      fixedOverflowWidgets: true,
      // Hostile content stays inert and visible (see DetailEditor).
      links: false,
      renderControlCharacters: true,
      unicodeHighlight: { invisibleCharacters: true, ambiguousCharacters: true },
    });
    ed.current = editor;
    return () => {
      ed.current = null;
      const m = editor.getModel();
      editor.dispose();
      m?.original.dispose();
      m?.modified.dispose();
    };
  }, []);
  useEffect(() => {
    const editor = ed.current;
    if (!editor) return;
    const old = editor.getModel();
    const lang = languageOf(before) === 'json' && languageOf(after) === 'json' ? 'json' : 'plaintext';
    editor.setModel({
      original: monaco.editor.createModel(before, lang),
      modified: monaco.editor.createModel(after, lang),
    });
    old?.original.dispose();
    old?.modified.dispose();
  }, [before, after]);
  useEffect(() => {
    monaco.editor.setTheme(scheme === 'dark' ? 'vs-dark' : 'vs');
  }, [scheme]);
  return <div ref={host} className="editor-host" data-testid="diff-editor" />;
}
