import { useRef } from 'react';
import { useFolder } from '../../state/folder.ts';
import { filesFromInput, hasDirectoryPicker, pickFolder } from './folder-files.ts';

/** "Open folder…": the directory picker where the browser has one, else a webkitdirectory input. */
export function OpenFolder() {
  const openFolder = useFolder((s) => s.folderActions.openFolder);
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        data-testid="open-folder"
        title={
          'Open a folder of sessions: ~/.claude/projects, one project folder of it, ~/.codex/sessions, a folder ' +
          'of Inspect logs. A session opened from the table comes with its sub-agents (<session>/subagents/).'
        }
        onClick={async () => {
          if (!hasDirectoryPicker()) {
            input.current?.click();
            return;
          }
          const picked = await pickFolder();
          if (picked) void openFolder(picked.files, picked.rootName, picked.handles);
        }}
      >
        Open folder…
      </button>
      <input
        ref={input}
        data-testid="open-folder-input"
        type="file"
        hidden
        webkitdirectory=""
        onChange={(e) => {
          const list = [...(e.target.files ?? [])];
          e.target.value = '';
          if (list.length === 0) return;
          const picked = filesFromInput(list);
          void openFolder(picked.files, picked.rootName);
        }}
      />
    </>
  );
}
