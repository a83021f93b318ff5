import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { tagKey, tagNameProblem, type Tag } from '../../../contract/tags';
import { userMessage } from '../../lib/user-message';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { useShell } from '../../shell-context';
import { useUserTags } from './tag-store';

/** "1 document", "2 documents". */
export const documentCount = (n: number) =>
  `${n.toLocaleString('en-US')} document${n === 1 ? '' : 's'}`;

/**
 * The documents each tag is on, from the worker's mirror (tags.counts), re-read whenever the
 * tags or the links change (here, in another tab, or from the server). null until read.
 */
function useTagCounts(): Record<string, number> | null {
  const { client } = useShell();
  const [counts, setCounts] = useState<Record<string, number> | null>(null);
  useEffect(() => {
    let alive = true;
    let latest = 0;
    const read = () => {
      const mine = ++latest;
      client.call('tags.counts', {}).then(
        (answer) => alive && mine === latest && setCounts(answer),
        () => {},
      );
    };
    read();
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && (event.store === 'document_tags' || event.store === 'tags')) {
        read();
      }
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client]);
  return counts;
}

type Asking = { kind: 'delete'; tag: Tag } | { kind: 'merge'; tag: Tag; into: Tag } | null;

/**
 * /settings/tags, the "Tags Manager" (000 §2): the user's tags with how many documents carry
 * each; rename, delete (asked first, naming its count) and merge two tags. Every write is the
 * worker's optimistic op: the list shows it at once and the worker puts it back when the server
 * refuses, and the refusal is shown here.
 */
export function TagsManagerPage() {
  const { client } = useShell();
  const tags = useUserTags();
  const counts = useTagCounts();
  const [asking, setAsking] = useState<Asking>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const run = (work: Promise<unknown>) => {
    setProblem(null);
    work.catch((error: unknown) => setProblem(userMessage(error)));
  };
  const countOf = (tag: Tag) => counts?.[tag.id] ?? 0;

  let body: ReactNode;
  if (tags === null) {
    body = (
      <p className="muted" role="status">
        Loading tags…
      </p>
    );
  } else if (tags.length === 0) {
    body = (
      <p className="muted">No tags yet. Tag a document from its card or its preview to start.</p>
    );
  } else {
    body = (
      <ul className="tags-manager" aria-label="Your tags">
        {tags.map((tag) => (
          <TagRow
            key={tag.id}
            tag={tag}
            tags={tags}
            count={counts === null ? null : countOf(tag)}
            onRename={(name) => run(client.call('tags.rename', { tag_id: tag.id, tag: name }))}
            onDelete={() => setAsking({ kind: 'delete', tag })}
            onMerge={(into) => setAsking({ kind: 'merge', tag, into })}
          />
        ))}
      </ul>
    );
  }

  return (
    <section className="settings-page tags-manager-page">
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {body}
      {asking?.kind === 'delete' ? (
        <ConfirmDialog
          title={`Delete the tag ${asking.tag.name}?`}
          action="Delete tag"
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            run(client.call('tags.delete', { tag_id: asking.tag.id }));
          }}
        >
          It is on {documentCount(countOf(asking.tag))}. The documents stay; only this tag comes off
          them.
        </ConfirmDialog>
      ) : null}
      {asking?.kind === 'merge' ? (
        <ConfirmDialog
          title={`Merge ${asking.tag.name} into ${asking.into.name}?`}
          action="Merge tags"
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            run(client.call('tags.merge', { from: asking.tag.id, into: asking.into.id }));
          }}
        >
          The {documentCount(countOf(asking.tag))} tagged {asking.tag.name} will be tagged{' '}
          {asking.into.name}, and {asking.tag.name} is deleted.
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function TagRow(props: {
  tag: Tag;
  tags: readonly Tag[];
  count: number | null;
  onRename(name: string): void;
  onDelete(): void;
  onMerge(into: Tag): void;
}) {
  const { tag } = props;
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(tag.name);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const mergeId = useId();
  const others = props.tags.filter((t) => t.id !== tag.id);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const bad = tagNameProblem(trimmed);
    if (bad) return setProblem(bad);
    const clash = others.find((t) => tagKey(t.name) === tagKey(trimmed));
    if (clash) return setProblem(`A tag named ${clash.name} already exists: merge them instead.`);
    setEditing(false);
    setProblem(null);
    if (trimmed !== tag.name) props.onRename(trimmed);
  };

  return (
    <li className="tags-manager-row" aria-label={tag.name}>
      {editing ? (
        <form className="tags-manager-rename" onSubmit={save} noValidate>
          <label className="visually-hidden" htmlFor={inputId}>
            New name for {tag.name}
          </label>
          <input
            id={inputId}
            autoFocus
            value={name}
            maxLength={100}
            aria-invalid={problem !== null || undefined}
            onChange={(event) => setName(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                setEditing(false);
                setProblem(null);
              }
            }}
          />
          <button type="submit" className="button small">
            Save
          </button>
          <button
            type="button"
            className="button secondary small"
            onClick={() => {
              setEditing(false);
              setProblem(null);
            }}
          >
            Cancel
          </button>
          {problem ? (
            <p className="form-error" role="alert">
              {problem}
            </p>
          ) : null}
        </form>
      ) : (
        <>
          <span className="tags-manager-name">{tag.name}</span>
          <span className="muted tags-manager-count">
            {props.count === null ? '…' : documentCount(props.count)}
          </span>
          <button
            type="button"
            className="button secondary small"
            aria-label={`Rename ${tag.name}`}
            onClick={() => {
              setName(tag.name);
              setEditing(true);
            }}
          >
            Rename
          </button>
          {others.length > 0 ? (
            <>
              <label className="visually-hidden" htmlFor={mergeId}>
                Merge {tag.name} into
              </label>
              <select
                id={mergeId}
                className="tags-manager-merge"
                value=""
                onChange={(event) => {
                  const into = others.find((t) => t.id === event.currentTarget.value);
                  if (into) props.onMerge(into);
                }}
              >
                <option value="">Merge into…</option>
                {others.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <button
            type="button"
            className="button secondary small danger"
            aria-label={`Delete ${tag.name}`}
            onClick={props.onDelete}
          >
            Delete
          </button>
        </>
      )}
    </li>
  );
}
