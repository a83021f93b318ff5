import { useEffect, useRef } from 'react';
import { readingKeyOf } from './reading-keys';
import { useReadingList } from './reading-list';

/**
 * Previous and next in the preview: the documents either side of the one shown in the list it
 * was opened from (a feed or a search's results, reading-list.ts), as Feedly's and Inoreader's
 * article views have them. j and k step too, and m marks the shown document read or unread;
 * the arrows keep scrolling the document. Nothing shows for a preview opened from elsewhere (a
 * citation, a link), or from a list that has left the screen unless this is the full-screen
 * preview that replaced it.
 */
export function PreviewNav(props: {
  deeplink: string;
  /** The full-screen preview (the list it came from is no longer on screen). */
  fullPage: boolean;
  onToggleRead?: () => void;
}) {
  const list = useReadingList();
  const usable = list !== null && (list.attached || props.fullPage);
  const previous = usable ? list.neighbour(props.deeplink, -1) : null;
  const next = usable ? list.neighbour(props.deeplink, 1) : null;

  const latest = useRef({ list: usable ? list : null, props });
  latest.current = { list: usable ? list : null, props };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { list: shownFrom, props: p } = latest.current;
      const key = readingKeyOf(event, false);
      if (key === 'toggle-read' && p.onToggleRead) {
        event.preventDefault();
        p.onToggleRead();
      } else if ((key === 'next' || key === 'previous') && shownFrom) {
        event.preventDefault();
        shownFrom.step(p.deeplink, key === 'next' ? 1 : -1);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  if (!usable || (previous === null && next === null)) return null;
  return (
    <nav className="preview-nav" aria-label="Documents in this list">
      <button
        type="button"
        className="button secondary small"
        disabled={previous === null}
        title={previous ? `${previous.title} (k)` : undefined}
        onClick={() => list.step(props.deeplink, -1)}
      >
        ‹ Previous
      </button>
      <button
        type="button"
        className="button secondary small"
        disabled={next === null}
        title={next ? `${next.title} (j)` : undefined}
        onClick={() => list.step(props.deeplink, 1)}
      >
        Next ›
      </button>
    </nav>
  );
}
