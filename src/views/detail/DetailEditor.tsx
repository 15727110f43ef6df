import { useEffect, useRef } from 'react';
import type { Scheme } from '../app/use-color-scheme.ts';
import { monaco } from '../common/monaco.ts';

const OPTIONS = {
  readOnly: true,
  domReadOnly: true,
  automaticLayout: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  wordWrap: 'on',
  fontSize: 12,
  lineHeight: 18,
  renderLineHighlight: 'none',
  folding: true,
  lineNumbersMinChars: 4,
  wrappingIndent: 'indent',
  fixedOverflowWidgets: true,
  // Transcript content is hostile input: no clickable links (a `javascript:` or phishing URL stays text), and
  // control, bidi-override and invisible characters are drawn as visible marks.
  links: false,
  renderControlCharacters: true,
  unicodeHighlight: { invisibleCharacters: true, ambiguousCharacters: true },
} as const;

/** Read-only Monaco showing one JSON document; disposed with the component. */
export function DetailEditor({ value, language, scheme }: { value: string; language: string; scheme: Scheme }) {
  const host = useRef<HTMLDivElement>(null);
  const ed = useRef<ReturnType<typeof monaco.editor.create> | null>(null);
  useEffect(() => {
    if (!host.current) return;
    const model = monaco.editor.createModel('', 'json');
    const editor = monaco.editor.create(host.current, { ...OPTIONS, model });
    ed.current = editor;
    return () => {
      ed.current = null;
      editor.dispose();
      model.dispose();
    };
  }, []);
  useEffect(() => {
    const model = ed.current?.getModel();
    if (!model) return;
    if (model.getLanguageId() !== language) monaco.editor.setModelLanguage(model, language);
    if (model.getValue() !== value) {
      model.setValue(value);
      ed.current?.setScrollTop(0);
    }
  }, [value, language]);
  useEffect(() => {
    monaco.editor.setTheme(scheme === 'dark' ? 'vs-dark' : 'vs');
  }, [scheme]);
  return <div ref={host} className="editor-host" data-testid="detail-editor" />;
}
