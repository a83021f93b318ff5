import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { toast } from 'react-hot-toast';
import { driveSourceKey } from '../../../contract/document-files';
import type { UploadRow } from '../../../contract/upload-client';
import type { UploadedFile } from '../../../contract/uploads';
import { useShell } from '../../shell-context';
import { fileSize, shortName, statusText, VALIDATION_TOAST_MS } from './upload-rules';

let nextId = 0;
const clientId = () => `f${Date.now().toString(36)}${(nextId++).toString(36)}`;

/**
 * The drive's upload panel (/feeds/home/drives, /apps/needldrive): the upload button and the
 * drop area ("Drop files here"), a row per file being uploaded with its progress and status
 * (the worker's `uploads` store, the same in every tab), and the user's uploaded documents,
 * each opening in the preview. Validation messages are error toasts of 3 s.
 */
export function UploadsPanel() {
  useSignals();
  const { client, state, product } = useShell();
  const session = state.$session.value;
  // A stored document's source is the user's drive (not the upload's `source`, the spec's
  // name for where the upload came from).
  const drive = session?.status === 'signed-in' ? driveSourceKey(product, session.user.id) : null;
  const [rows, setRows] = useState<UploadRow[]>([]);
  const [files, setFiles] = useState<UploadedFile[] | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const reload = useCallback(() => {
    void client.call('uploads.list', {}).then(setRows, () => {});
    void client.call('uploads.files', {}).then(setFiles, () => setFiles([]));
  }, [client]);

  useEffect(() => {
    reload();
    return client.onEvent((event) => {
      if (event.type === 'changed' && event.store === 'uploads') reload();
    });
  }, [client, reload]);

  const start = async (picked: File[]) => {
    if (picked.length === 0) return;
    const result = await client.call('uploads.start', {
      files: picked.map((f) => ({
        id: clientId(),
        name: f.name,
        size: f.size,
        type: f.type,
        data: f,
      })),
    });
    for (const message of result.errors) toast.error(message, { duration: VALIDATION_TOAST_MS });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void start([...event.dataTransfer.files]);
  };

  return (
    <section className="uploads-panel" aria-label="Uploads">
      <div
        className={dragging ? 'uploads-drop uploads-drop-active' : 'uploads-drop'}
        data-testid="uploads-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>{dragging ? 'Drop files here' : 'Drag files here, or'}</p>
        <button type="button" onClick={() => input.current?.click()}>
          Upload
        </button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label="Choose files to upload"
          accept=".pdf,.doc,.docx,.txt,.md,.ppt,.pptx,.xls,.xlsx"
          onChange={(e) => {
            const chosen = [...(e.target.files ?? [])];
            e.target.value = '';
            void start(chosen);
          }}
        />
      </div>
      {rows.length > 0 ? (
        <ul className="uploads-rows" aria-label="Files uploading">
          {rows.map((row) => (
            <li key={row.id} className={`upload-row upload-${row.status.toLowerCase()}`}>
              <span className="upload-name" title={row.name}>
                {shortName(row.name)}
              </span>
              <span className="upload-size">{fileSize(row.size)}</span>
              {row.status === 'UPLOADING' ? (
                <progress max={100} value={row.progress} aria-label={`${row.name} progress`} />
              ) : null}
              <span className="upload-status">
                {statusText(row.status, row.progress, row.error)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {files === null ? null : files.length === 0 ? (
        <p className="uploads-empty">No uploaded documents yet.</p>
      ) : (
        <ul className="uploads-files" aria-label="Uploaded documents">
          {files.map((f) => (
            <li key={f.key}>
              {f.deeplink && drive ? (
                <a href={`/preview/${encodeURIComponent(drive)}/${encodeURIComponent(f.deeplink)}`}>
                  <span title={f.name}>{shortName(f.name)}</span>
                </a>
              ) : (
                <span title={f.name}>{shortName(f.name)}</span>
              )}
              <span className="upload-size">{f.size === null ? '' : fileSize(f.size)}</span>
              <span className="upload-status">{statusText(f.status, f.progress, f.error)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
