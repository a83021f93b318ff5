import type { IngestionStatus } from '../../../contract/sources';
import { formatRelative } from '../../lib/format';

/**
 * A source's ingestion status in words (issue 6: "so users see why a source is empty"). No
 * React, no DOM.
 */

export const STATE_LABELS: Record<IngestionStatus['state'], string> = {
  pending: 'Waiting',
  running: 'Reading now',
  ok: 'Up to date',
  error: 'Failed',
};

const documents = (n: number) => `${n} ${n === 1 ? 'document' : 'documents'}`;

const when = (iso: string | null, now: Date, none: string) =>
  iso === null ? none : formatRelative(new Date(iso), now);

/** One line for a source's header: what happened last, or why nothing has yet. */
export function statusSummary(status: IngestionStatus, now: Date): string {
  switch (status.state) {
    case 'pending':
      return status.last_run_at === null
        ? 'Waiting for its first read'
        : `Waiting for its next read; ${documents(status.items)}`;
    case 'running':
      return `Reading now; ${documents(status.items)}`;
    case 'error':
      return `Last read failed: ${status.last_error ?? 'no reason was given'}`;
    case 'ok':
      return `Read ${when(status.last_run_at, now, 'never')}; ${documents(status.items)}`;
  }
}

export type StatusField = { label: string; value: string };

/** The settings screen's columns for one source: last run, next run, items, last error. */
export function statusFields(status: IngestionStatus, now: Date): StatusField[] {
  return [
    { label: 'Status', value: STATE_LABELS[status.state] },
    { label: 'Last run', value: when(status.last_run_at, now, 'Not yet') },
    { label: 'Next run', value: when(status.next_run_at, now, 'Not scheduled') },
    {
      label: 'Items',
      value:
        status.last_new > 0
          ? `${documents(status.items)} (${status.last_new} new)`
          : documents(status.items),
    },
    { label: 'Last error', value: status.last_error ?? 'None' },
  ];
}
