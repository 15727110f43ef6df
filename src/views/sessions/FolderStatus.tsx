import { useShallow } from 'zustand/react/shallow';
import { useFolder } from '../../state/folder.ts';

/** What the header names while the sessions page is shown: the folder, not the transcript behind it. */
export function FolderStatus() {
  const { rootName, status, sessions, served } = useFolder(
    useShallow((s) => ({
      rootName: s.rootName,
      status: s.status,
      sessions: s.scan?.sessions ?? null,
      served: s.served,
    })),
  );
  return (
    <div data-testid="folder-status" className="load-status" data-status={status}>
      <span className="file-name">{rootName ?? 'folder'}</span>
      <span className="sep">·</span>
      <span className="muted">
        {status === 'scanning'
          ? 'scanning…'
          : sessions === null
            ? 'sessions'
            : `${sessions.toLocaleString('en-US')} session${sessions === 1 ? '' : 's'}`}
        {served ? ' · served by tierscope serve' : ''}
      </span>
    </div>
  );
}
