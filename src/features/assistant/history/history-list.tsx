import { useEffect, useMemo, useRef, useState } from 'react';
import { SESSION_BADGES, type SessionSummary } from '../../../../contract/assistant';
import { Icon } from '../../../lib/icons';
import { VirtualList } from '../../../lists/virtual-list';
import { groupSessions, type HistoryGroup } from './history-groups';

/** Group headings and session rows share one height, so the list places rows unmeasured. */
export const HISTORY_ROW_HEIGHT = 40;

type Row = { kind: 'group'; label: HistoryGroup } | { kind: 'session'; session: SessionSummary };

/** The history badge of a session (001 §2): Doc, Feed, Source, Report; none for all and web. */
export function SessionBadge(props: { session: Pick<SessionSummary, 'type'> }) {
  const badge = SESSION_BADGES[props.session.type];
  return badge ? <span className="history-badge">{badge}</span> : null;
}

/**
 * The sessions under their group headings (Today, Yesterday, Last 7 Days, Last 30 Days, Older),
 * virtualised: a long history keeps only the rows in view in the page. The active session's row
 * is marked (aria-current); each row opens its session or deletes it.
 */
export function HistoryList(props: {
  sessions: readonly SessionSummary[];
  now: Date;
  activeSessionId: string | null;
  deletingId: string | null;
  onSelect: (sessionId: string) => void;
  onDelete: (session: SessionSummary) => void;
}) {
  const rows = useMemo<Row[]>(
    () =>
      groupSessions(props.sessions, props.now).flatMap(({ label, sessions }) => [
        { kind: 'group' as const, label },
        ...sessions.map((session) => ({ kind: 'session' as const, session })),
      ]),
    [props.sessions, props.now],
  );

  return (
    <VirtualList<Row>
      label="Conversations"
      className="history-list"
      count={rows.length}
      rowHeight={HISTORY_ROW_HEIGHT}
      row={(index) => rows[index]}
      // Every row is in memory already: there is no window to read as the list scrolls.
      onRangeChange={ignoreRange}
      renderRow={(row) =>
        row.kind === 'group' ? (
          <h3 className="history-group">{row.label}</h3>
        ) : (
          <SessionRow
            session={row.session}
            active={row.session.id === props.activeSessionId}
            deleting={row.session.id === props.deletingId}
            onSelect={props.onSelect}
            onDelete={props.onDelete}
          />
        )
      }
    />
  );
}

const ignoreRange = () => {};

function SessionRow(props: {
  session: SessionSummary;
  active: boolean;
  deleting: boolean;
  onSelect: (sessionId: string) => void;
  onDelete: (session: SessionSummary) => void;
}) {
  const { session } = props;
  // Deleting asks first (issue 18): a session is gone for good once deleted.
  const [confirming, setConfirming] = useState(false);
  // A delete that ended (one that failed leaves the row) ends the question too.
  const wasDeleting = useRef(props.deleting);
  useEffect(() => {
    if (wasDeleting.current && !props.deleting) setConfirming(false);
    wasDeleting.current = props.deleting;
  }, [props.deleting]);
  if (confirming) {
    return (
      <div className="history-row confirming" role="group" aria-label={`Delete ${session.title}?`}>
        <span className="history-row-title">Delete this chat?</span>
        <button
          type="button"
          className="button small"
          aria-label={`Confirm delete ${session.title}`}
          disabled={props.deleting}
          aria-busy={props.deleting || undefined}
          onClick={() => props.onDelete(session)}
        >
          Delete
        </button>
        <button
          type="button"
          className="button secondary small"
          autoFocus
          onClick={() => setConfirming(false)}
        >
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div className={props.active ? 'history-row active' : 'history-row'}>
      <button
        type="button"
        className="history-row-open"
        aria-current={props.active ? 'true' : undefined}
        title={session.title}
        onClick={() => props.onSelect(session.id)}
      >
        <span className="history-row-title">{session.title}</span>
        <SessionBadge session={session} />
      </button>
      <button
        type="button"
        className="icon-button history-row-delete"
        aria-label={`Delete ${session.title}`}
        title="Delete"
        disabled={props.deleting}
        aria-busy={props.deleting || undefined}
        onClick={() => setConfirming(true)}
      >
        <Icon name="trash" />
      </button>
    </div>
  );
}
