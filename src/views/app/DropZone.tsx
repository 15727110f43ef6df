import type { ReactNode } from 'react';
import { useStore } from '../../state/store.ts';

export function DropZone({ children }: { children: ReactNode }) {
  const loadFiles = useStore((s) => s.transcriptActions.loadFiles);
  return (
    <div
      data-testid="drop-zone"
      style={{ height: '100%' }}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        const files = [...e.dataTransfer.files];
        if (files.length > 0) void loadFiles(files);
      }}
    >
      {children}
    </div>
  );
}
