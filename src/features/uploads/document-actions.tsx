import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useState } from 'react';
import { toast } from 'react-hot-toast';
import { TOAST_TEXT } from '../../../contract/constants';
import { shareLinkPath } from '../../../contract/document-files';
import { SUMMARY_REQUESTED_TOAST, type SummaryStatus } from '../../../contract/extract';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { showToast } from '../../shell/toasts';
import { COPY_PROMPT, downloadName, DOCUMENT_TEXT, PDF_MIME_TYPE } from './document-texts';
import { PageTablesButton } from './page-tables';
import './document-viewer.css';

export type ActionDocument = { source: string; deeplink: string; title: string; mime_type: string };

/**
 * An uploaded document's actions in the preview (issue 20 item 6; 002 §3-4, §7-8, 000 §6, §8),
 * each behind its flag: Share (a link that opens it signed out, copied, revocable), Download
 * (the original file, with the spec's toasts), Summarize ("Summarizing" while the server writes
 * it, then "View Summary" in a new tab; the worker polls) and Delete (after a confirmation;
 * hidden on phones, 002 §5). Every call goes through the worker (docFile.*).
 */
export function DocumentActions(props: {
  doc: ActionDocument;
  mobile: boolean;
  onDeleted: () => void;
  /** The page the viewer opened at (a citation's), where table extraction starts. */
  page?: number | null;
}) {
  useSignals();
  const { state } = useShell();
  const flags = state.$flags.value;
  return (
    <div className="document-actions" role="group" aria-label="Document actions">
      {flags.doc_share === true ? <ShareControls doc={props.doc} /> : null}
      {flags.doc_download === true ? <DownloadButton doc={props.doc} /> : null}
      {flags.doc_summarization === true ? <SummaryButton doc={props.doc} /> : null}
      {flags.doc_table_extraction === true && props.doc.mime_type === PDF_MIME_TYPE ? (
        <PageTablesButton deeplink={props.doc.deeplink} page={props.page ?? 1} />
      ) : null}
      {flags.doc_delete === true && !props.mobile ? (
        <DeleteButton doc={props.doc} onDeleted={props.onDeleted} />
      ) : null}
    </div>
  );
}

/** The failure's own words as an error toast (000 §8). */
const toastFailure = (failure: unknown) => showToast('error', userMessage(failure));

/**
 * An action's busy state: `run(work, failed)` marks it busy while `work` runs and hands a
 * failure to `failed` (its own words as an error toast by default).
 */
function useBusyAction() {
  const [busy, setBusy] = useState(false);
  const run = async (
    work: () => Promise<void>,
    failed: (failure: unknown) => void = toastFailure,
  ) => {
    setBusy(true);
    try {
      await work();
    } catch (failure) {
      failed(failure);
    } finally {
      setBusy(false);
    }
  };
  return [busy, run] as const;
}

function ShareControls(props: { doc: ActionDocument }) {
  const { client } = useShell();
  const { source, deeplink } = props.doc;
  const [link, setLink] = useState<string | null>(null);
  const [busy, run] = useBusyAction();
  const fieldId = useId();

  const share = () =>
    run(
      async () => {
        const { public_access_key } = await client.call('docFile.share', { source, deeplink });
        setLink(`${window.location.origin}${shareLinkPath(source, deeplink, public_access_key)}`);
      },
      // 002 §8: a missing public access key (or any failure) is the generic error.
      () => showToast('error', TOAST_TEXT.genericFailure),
    );
  const copy = async (text: string) => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      showToast('success', TOAST_TEXT.copied);
    } catch {
      window.prompt(COPY_PROMPT, text);
    }
  };
  const revoke = () =>
    run(async () => {
      await client.call('docFile.revokeShare', { source, deeplink });
      setLink(null);
      showToast('success', DOCUMENT_TEXT.revoked);
    });

  return (
    <>
      <button
        type="button"
        className="button secondary small"
        disabled={busy}
        aria-busy={busy || undefined}
        onClick={() => void share()}
      >
        Share
      </button>
      {link ? (
        <div className="share-panel" role="group" aria-label="Share link">
          <label htmlFor={fieldId}>Anyone with this link can open the document</label>
          <input id={fieldId} readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="button secondary small" onClick={() => void copy(link)}>
            Copy link
          </button>
          <button
            type="button"
            className="button secondary small danger"
            disabled={busy}
            onClick={() => void revoke()}
          >
            Revoke link
          </button>
        </div>
      ) : null}
    </>
  );
}

function DownloadButton(props: { doc: ActionDocument }) {
  const { client } = useShell();
  const [busy, run] = useBusyAction();
  const download = () => {
    showToast('blank', DOCUMENT_TEXT.downloading);
    return run(
      async () => {
        const file = await client.call('docFile.original', {
          source: props.doc.source,
          deeplink: props.doc.deeplink,
        });
        const url = URL.createObjectURL(file);
        const anchor = document.createElement('a');
        anchor.href = url;
        anchor.download = downloadName(props.doc.title, props.doc.mime_type);
        anchor.hidden = true;
        document.body.append(anchor);
        anchor.click();
        anchor.remove();
        // The browser has taken the file once the click's task has run.
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
        showToast('success', DOCUMENT_TEXT.downloaded);
      },
      () => toast.error(DOCUMENT_TEXT.downloadFailed, { duration: DOCUMENT_TEXT.downloadFailedMs }),
    );
  };
  return (
    <button
      type="button"
      className="button secondary small"
      disabled={busy}
      aria-busy={busy || undefined}
      onClick={() => void download()}
    >
      Download
    </button>
  );
}

function SummaryButton(props: { doc: ActionDocument }) {
  const { client } = useShell();
  const { deeplink } = props.doc;
  const [summary, setSummary] = useState<SummaryStatus | null>(null);
  const [asking, run] = useBusyAction();

  useEffect(() => {
    let alive = true;
    const read = () =>
      client.call('docFile.summaryStatus', { deeplink }).then(
        (status) => alive && setSummary(status),
        () => {},
      );
    void read();
    const stop = client.onEvent((event) => {
      if (event.type !== 'changed' || event.store !== 'summaries') return;
      if (event.keys === null || event.keys.includes(deeplink)) void read();
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client, deeplink]);

  const ask = () =>
    run(async () => {
      setSummary(await client.call('docFile.summarise', { deeplink }));
      showToast('blank', SUMMARY_REQUESTED_TOAST);
    });
  const status = summary?.status ?? null;
  if (status === 'SUCCESS' && summary?.summary_pdf) {
    const pdf = summary.summary_pdf;
    return (
      <button
        type="button"
        className="button secondary small"
        onClick={() => {
          showToast('blank', DOCUMENT_TEXT.openingTab);
          const opened = window.open(pdf, '_blank');
          // No window: the browser blocked the pop-up (000 §8, 5 s).
          if (opened) opened.opener = null;
          else toast.error(DOCUMENT_TEXT.popupBlocked, { duration: DOCUMENT_TEXT.popupBlockedMs });
        }}
      >
        View Summary
      </button>
    );
  }
  const working = status === 'PENDING' || status === 'PROCESSING' || asking;
  return (
    <button
      type="button"
      className="button secondary small"
      disabled={working}
      aria-busy={working || undefined}
      title={status === 'FAILED' && summary?.error ? summary.error : undefined}
      onClick={() => void ask()}
    >
      {working ? 'Summarizing' : 'Summarize'}
    </button>
  );
}

function DeleteButton(props: { doc: ActionDocument; onDeleted: () => void }) {
  const { client } = useShell();
  const [confirming, setConfirming] = useState(false);
  const [busy, run] = useBusyAction();
  const remove = () =>
    run(async () => {
      await client.call('docFile.delete', {
        source: props.doc.source,
        deeplink: props.doc.deeplink,
      });
      setConfirming(false);
      showToast('success', `${props.doc.title} is deleted`);
      props.onDeleted();
    });
  return (
    <>
      <button
        type="button"
        className="button secondary small danger"
        onClick={() => setConfirming(true)}
      >
        Delete
      </button>
      {confirming ? (
        <ConfirmDialog
          title={`Delete ${props.doc.title}?`}
          action="Delete document"
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        >
          {DOCUMENT_TEXT.deleteExplained}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
