import { type ReactNode, useEffect, useState } from 'react';
import { useFolder } from '../../state/folder.ts';
import { folderFromDrop } from '../sessions/folder-files.ts';
import { openFiles } from './open-files.ts';

/** The whole window accepts dropped files; an overlay shows while something is dragged over it. */
export function DropZone({ children }: { children: ReactNode }) {
  const openFolder = useFolder((s) => s.folderActions.openFolder);
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setOver(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overFn = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      depth = 0;
      setOver(false);
      const files = [...(e.dataTransfer?.files ?? [])];
      // A dropped folder opens as a folder of sessions; its entries must be taken before this handler returns.
      const folder = folderFromDrop(e.dataTransfer?.items);
      void folder.then((picked) => {
        if (picked) void openFolder(picked.files, picked.rootName);
        else if (files.length > 0) void openFiles(files);
      });
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overFn);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('drop', drop);
    };
  }, [openFolder]);
  return (
    <div data-testid="drop-zone" className={over ? 'drop-zone dragging' : 'drop-zone'}>
      {children}
      {over && (
        <div className="drop-overlay">
          <div>
            Drop a transcript to inspect it, or a folder of sessions
            <div className="muted">a Claude Code session can come with its agent-*.jsonl files</div>
          </div>
        </div>
      )}
    </div>
  );
}
