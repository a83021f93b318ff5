import { useId, useRef, useState } from 'react';
import { useCloseOutside } from '../../lib/use-close-outside';
import { splitPills } from './card-rules';

/** What a row of pills holds: the document's categories, or the user's own tags. */
const KINDS = {
  categories: {
    root: 'pill-tags',
    pill: 'pill',
    list: 'Categories',
    popup: 'More categories',
    more: (n: number) => `${n} more categories`,
  },
  user: {
    root: 'pill-tags user-tags',
    pill: 'pill pill-user',
    list: 'Your tags',
    popup: 'More tags',
    more: (n: number) => `${n} more tags`,
  },
} as const;

/**
 * Pill tags (002 §9): the first five (one on a phone) on the card, the rest in a popup opened
 * by a "+N" button. The popup closes on Escape, on a click outside it, or on the button again.
 */
export function PillTags(props: {
  tags: readonly string[];
  mobile: boolean;
  kind?: keyof typeof KINDS;
}) {
  const kind = KINDS[props.kind ?? 'categories'];
  const { shown, overflow } = splitPills(props.tags, props.mobile);
  const [open, setOpen] = useState(false);
  const popupId = useId();
  const root = useRef<HTMLDivElement>(null);
  const close = useRef(() => setOpen(false)).current;
  useCloseOutside(open, root, close);

  if (shown.length === 0) return null;
  return (
    <div
      className={kind.root}
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <ul className="pills" aria-label={kind.list}>
        {shown.map((tag) => (
          <li key={tag} className={kind.pill}>
            {tag}
          </li>
        ))}
      </ul>
      {overflow.length > 0 ? (
        <>
          <button
            type="button"
            className="pill pill-more"
            aria-expanded={open}
            aria-controls={popupId}
            aria-label={kind.more(overflow.length)}
            onClick={() => setOpen((was) => !was)}
          >
            +{overflow.length}
          </button>
          {open ? (
            <ul id={popupId} className="pill-popup" aria-label={kind.popup}>
              {overflow.map((tag) => (
                <li key={tag} className={kind.pill}>
                  {tag}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
