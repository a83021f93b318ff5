import { useEffect, useState } from 'react';
import type { MessagingAnswer, Suggestion } from '../../../contract/assistant';
import { useShell } from '../../shell-context';
import { NO_SOURCE_HINT, SUGGESTION_SKELETONS } from './assistant-texts';

type Group = keyof MessagingAnswer;
const GROUPS: ReadonlyArray<{ key: Group; title: string }> = [
  { key: 'all', title: 'About all your data' },
  { key: 'feed', title: 'About this feed' },
  { key: 'document', title: 'About this document' },
];

type Load =
  { status: 'loading' } | { status: 'failed' } | { status: 'ready'; answer: MessagingAnswer };

function SkeletonCard() {
  return (
    <li className="suggestion-card skeleton" data-testid="suggestion-skeleton">
      <span className="skeleton-line wide" />
      <span className="skeleton-line" />
    </li>
  );
}

/** An icon name from the server is not text to show; a single symbol is. */
const iconText = (icon: string) => ([...icon].length <= 2 ? icon : '✦');

/**
 * Suggested questions (001 §2), grouped all, feed and document, from ask.suggestions for the
 * chat's scope. While they load: 4, 2 and 0 placeholder cards. If loading fails the section is
 * not shown. Without a source (see `noSource` in chat-scope.ts) the cards are disabled with the
 * hint "Select a source first.".
 */
export function Suggestions(props: {
  query: { board_id?: string; document_id?: string };
  noSource: boolean;
  onAsk: (question: string) => void;
}) {
  const { client } = useShell();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const key = JSON.stringify(props.query);

  useEffect(() => {
    let alive = true;
    setLoad({ status: 'loading' });
    client.call('ask.suggestions', JSON.parse(key) as typeof props.query).then(
      (answer) => alive && setLoad({ status: 'ready', answer }),
      () => alive && setLoad({ status: 'failed' }),
    );
    return () => {
      alive = false;
    };
    // `key` stands for the query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, key]);

  if (load.status === 'failed') return null;
  const lists: Array<{ key: Group; title: string; items: Suggestion[] | null }> = GROUPS.map(
    (g) => ({ ...g, items: load.status === 'ready' ? load.answer[g.key] : null }),
  );
  const shown = lists.filter((g) =>
    g.items === null ? SUGGESTION_SKELETONS[g.key] > 0 : g.items.length > 0,
  );
  if (shown.length === 0) return null;

  return (
    <section
      className="suggestions"
      aria-label="Suggested questions"
      aria-busy={load.status === 'loading' || undefined}
    >
      {props.noSource ? (
        <p className="suggestions-hint" role="note">
          {NO_SOURCE_HINT}
        </p>
      ) : null}
      {shown.map((group) => (
        <div key={group.key} className="suggestion-group">
          <h4>{group.title}</h4>
          <ul aria-label={group.title}>
            {group.items === null
              ? Array.from({ length: SUGGESTION_SKELETONS[group.key] }, (_, i) => (
                  <SkeletonCard key={i} />
                ))
              : group.items.map((s) => (
                  <li key={s.question} className="suggestion-card">
                    <button
                      type="button"
                      disabled={props.noSource}
                      title={props.noSource ? NO_SOURCE_HINT : undefined}
                      onClick={() => props.onAsk(s.question)}
                    >
                      <span className="suggestion-icon" aria-hidden="true">
                        {iconText(s.icon)}
                      </span>
                      {s.question}
                    </button>
                  </li>
                ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
