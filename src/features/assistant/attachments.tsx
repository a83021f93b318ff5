import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { DROP_FILES_TEXT, type ChatAttachment } from '../../../contract/assistant-attachments';
import { analyticsEventName } from '../../../contract/telemetry';
import { useShell } from '../../shell-context';
import { shortName, statusText } from '../uploads';
import './attachments.css';

/** What the composer needs of the chat's attachments (chat-view.tsx makes it). */
export type AttachControl = {
  attachments: readonly ChatAttachment[];
  /** 001 §5: configs loading, web search, messages without a feed, uploads incomplete. */
  buttonDisabled: boolean;
  /** Why the button is disabled (its tooltip), or null. */
  buttonBlockedBy: string | null;
  /** 001 §2: upload off, the home feed, messages without a feed, attachments incomplete. */
  dropDisabled: boolean;
  onFiles: (files: File[]) => void;
  onRemove: (id: string) => void;
};

const ACCEPT = '.pdf,.doc,.docx,.txt,.md,.ppt,.pptx,.xls,.xlsx';

/**
 * The drop area around the composer (001 §2): "Drop files here" while files are dragged over
 * it, unless dropping is disabled (then a drop does nothing).
 */
export function AttachDropArea(props: { control: AttachControl | null; children: ReactNode }) {
  const [over, setOver] = useState(false);
  const control = props.control;
  const enabled = control !== null && !control.dropDisabled;
  const onDragOver = (event: DragEvent) => {
    if (!enabled || !event.dataTransfer?.types?.includes('Files')) return;
    event.preventDefault();
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    setOver(false);
    if (!enabled) return;
    event.preventDefault();
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length > 0) control.onFiles(files);
  };
  return (
    <div
      className={over ? 'attach-drop attach-drop-over' : 'attach-drop'}
      data-testid="assistant-drop"
      data-drop={enabled ? 'on' : 'off'}
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      {props.children}
      {over ? (
        <div className="attach-drop-hint" aria-hidden="true">
          {DROP_FILES_TEXT}
        </div>
      ) : null}
    </div>
  );
}

/** The attach button and its file picker (hidden input). */
export function AttachButton(props: { control: AttachControl }) {
  const { state, product } = useShell();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="button secondary small"
        disabled={props.control.buttonDisabled}
        title={props.control.buttonBlockedBy ?? undefined}
        onClick={() => {
          // 001 §9: the attach click is an analytics event of its own.
          state.reportEvent(analyticsEventName(product, 'upload_clicked'));
          input.current?.click();
        }}
      >
        Attach
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={ACCEPT}
        aria-label="Choose files to attach"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) props.control.onFiles(files);
        }}
      />
    </>
  );
}

const removable = (a: ChatAttachment) =>
  a.status === 'COMPLETED' || a.status === 'FAILED' || a.status === 'UPLOADING_ERROR';

/** The attachments waiting for the question: name (10 characters), status, remove. */
export function AttachmentList(props: {
  attachments: readonly ChatAttachment[];
  onRemove?: (id: string) => void;
  label?: string;
}) {
  if (props.attachments.length === 0) return null;
  return (
    <ul className="attachment-list" aria-label={props.label ?? 'Attachments'}>
      {props.attachments.map((a) => (
        <li key={a.id} className={`attachment attachment-${a.status.toLowerCase()}`}>
          <span className="attachment-name" title={a.name}>
            {shortName(a.name)}
          </span>
          <span className="attachment-status">{statusText(a.status, a.progress, a.error)}</span>
          {a.status === 'UPLOADING' ? (
            <progress max={100} value={a.progress} aria-label={`${a.name} progress`} />
          ) : null}
          {props.onRemove && removable(a) ? (
            <button
              type="button"
              className="attachment-remove"
              aria-label={`Remove ${a.name}`}
              onClick={() => props.onRemove?.(a.id)}
            >
              ×
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
