import { useEffect, useId, useRef, useState } from 'react';
import { splitPills } from './card-rules';

/**
 * Pill tags (002 §9): the first five (one on a phone) on the card, the rest in a popup opened
 * by a "+N" button. The popup closes on Escape, on a click outside it, or on the button again.
 */
export function PillTags(props: { tags: readonly string[]; mobile: boolean }) {
  const { shown, overflow } = splitPills(props.tags, props.mobile);
  const [open, setOpen] = useState(false);
  const popupId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  if (shown.length === 0) return null;
  return (
    <div
      className="pill-tags"
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <ul className="pills" aria-label="Categories">
        {shown.map((tag) => (
          <li key={tag} className="pill">
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
            aria-label={`${overflow.length} more categories`}
            onClick={() => setOpen((was) => !was)}
          >
            +{overflow.length}
          </button>
          {open ? (
            <ul id={popupId} className="pill-popup" aria-label="More categories">
              {overflow.map((tag) => (
                <li key={tag} className="pill">
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
