import { useId, useRef, useState, type ReactNode } from 'react';
import {
  BOOKMARK_TAG_ID,
  bookmarkTagName,
  tagKey,
  tagOffer,
  type Tag,
} from '../../../contract/tags';
import type { ResultCard } from '../../../contract/documents';
import { useShell } from '../../shell-context';
import { useCloseOutside } from '../../lib/use-close-outside';
import { PillTags } from '../documents';
import { newTagId, useDocumentTags, useUserTags, type DocumentTagsState } from './tag-store';

/**
 * A document's tags on its card and in its preview (002 §3-5, §9): the bookmark toggle, the
 * user's tags as pills (5 on desktop, 1 on a phone, the rest in an overflow popup) and the tag
 * picker. Each write is optimistic (tag-store.ts); a document tagged from here is also kept in
 * the mirror (doc.get), and its `card` (when given) goes with the write, so the tag pages list
 * it at once, offline too.
 */
export function DocumentTagControls(props: {
  deeplink: string;
  source: string;
  mobile: boolean;
  card?: ResultCard;
}) {
  const { client } = useShell();
  const state = useDocumentTags(props.deeplink, props.card);
  const tags = useUserTags();
  const { deeplink, source } = props;
  const keep = () => void client.call('doc.get', { source, deeplink }).catch(() => {});
  return (
    <div className="tag-controls">
      <BookmarkToggle state={state} onAdded={keep} />
      <TagPills ids={state.ids} tags={tags} mobile={props.mobile} />
      <TagPicker state={state} tags={tags} onAdded={keep} />
    </div>
  );
}

/** The bookmark: the reserved tag, created with the link when the user has none yet. */
function BookmarkToggle(props: { state: DocumentTagsState; onAdded: () => void }) {
  const { product } = useShell();
  const { ids, set } = props.state;
  const bookmarked = ids?.includes(BOOKMARK_TAG_ID) ?? false;
  return (
    <button
      type="button"
      className="button secondary small bookmark-toggle"
      aria-pressed={bookmarked}
      aria-label={bookmarked ? 'Remove bookmark' : 'Bookmark'}
      title={bookmarked ? 'Remove bookmark' : 'Bookmark'}
      disabled={ids === null}
      onClick={() => {
        if (ids === null) return;
        if (bookmarked) {
          set(ids.filter((id) => id !== BOOKMARK_TAG_ID));
          return;
        }
        set([...ids, BOOKMARK_TAG_ID], [{ id: BOOKMARK_TAG_ID, tag: bookmarkTagName(product) }]);
        props.onAdded();
      }}
    >
      <span aria-hidden="true">{bookmarked ? '★' : '☆'}</span>
    </button>
  );
}

/** The document's user tags (the bookmark is the toggle's), in the order the user made them. */
function TagPills(props: {
  ids: readonly string[] | null;
  tags: readonly Tag[] | null;
  mobile: boolean;
}) {
  const names = (props.tags ?? [])
    .filter((tag) => props.ids?.includes(tag.id))
    .map((tag) => tag.name);
  return <PillTags tags={names} mobile={props.mobile} kind="user" />;
}

/**
 * The tag picker (002 §5): a popover with an input that filters the user's tags; choosing one
 * puts it on the document or takes it off, and "Add {tag}" (only for a new, valid, trimmed name)
 * creates the tag and puts it on in one call.
 */
function TagPicker(props: {
  state: DocumentTagsState;
  tags: readonly Tag[] | null;
  onAdded: () => void;
}) {
  const { product } = useShell();
  const { ids, set } = props.state;
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState('');
  const popupId = useId();
  const inputId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useRef(() => {
    setOpen(false);
    setInput('');
  }).current;
  useCloseOutside(open, root, close);

  const tags = props.tags ?? [];
  const needle = tagKey(input);
  const matching = needle ? tags.filter((tag) => tagKey(tag.name).includes(needle)) : tags;
  const offer = tagOffer(input, tags, product);

  const toggle = (tag: Tag) => {
    if (ids === null) return;
    if (ids.includes(tag.id)) set(ids.filter((id) => id !== tag.id));
    else {
      set([...ids, tag.id]);
      props.onAdded();
    }
  };
  const add = (name: string) => {
    if (ids === null) return;
    const id = newTagId();
    set([...ids, id], [{ id, tag: name }]);
    props.onAdded();
    setInput('');
  };

  let body: ReactNode = null;
  if (open) {
    body = (
      <div
        id={popupId}
        className="tag-picker-popup"
        role="dialog"
        aria-label="Tag this document"
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.stopPropagation();
          close();
          button.current?.focus();
        }}
      >
        <label className="visually-hidden" htmlFor={inputId}>
          Find or add a tag
        </label>
        <input
          id={inputId}
          className="tag-picker-input"
          type="text"
          autoFocus
          autoComplete="off"
          placeholder="Find or add a tag"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            if (offer !== null) add(offer);
            else if (matching.length === 1) toggle(matching[0]);
          }}
        />
        {props.tags === null ? (
          <p className="muted" role="status">
            Loading tags…
          </p>
        ) : (
          <ul className="tag-picker-list" aria-label="Tags to choose">
            {matching.map((tag) => (
              <li key={tag.id}>
                <button
                  type="button"
                  className="tag-picker-option"
                  aria-pressed={ids?.includes(tag.id) ?? false}
                  disabled={ids === null}
                  onClick={() => toggle(tag)}
                >
                  {tag.name}
                </button>
              </li>
            ))}
          </ul>
        )}
        {offer !== null ? (
          <button
            type="button"
            className="button secondary small tag-picker-add"
            disabled={ids === null}
            onClick={() => add(offer)}
          >
            Add {offer}
          </button>
        ) : null}
        {props.tags !== null && matching.length === 0 && offer === null && needle === '' ? (
          <p className="muted">No tags yet: type a name to add one.</p>
        ) : null}
      </div>
    );
  }
  return (
    <div className="tag-picker" ref={root}>
      <button
        ref={button}
        type="button"
        className="button secondary small tag-picker-toggle"
        aria-expanded={open}
        aria-controls={open ? popupId : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        Tags
      </button>
      {body}
    </div>
  );
}
