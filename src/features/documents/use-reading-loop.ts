import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { withoutOverlayParams } from '../../lib/overlay';
import { readingKeyOf } from './reading-keys';
import { forgetShown, provideReadingList, shownLast } from './reading-list';
import type { CardLink } from './result-card';

/** What the loop needs of a row: which document it is, its title, and its read state. */
type ReadingRow = { deeplink: string; title: string; label: string; read: boolean };

/** How far either side of the rows in view a document is looked for (about the rows held). */
const LOOK_AROUND = 300;

export type ReadingLoop = {
  /** The selected card's place, marked on the card (and behind the preview). */
  selected: number | null;
  /** The place the list keeps in view, null before the first move. */
  scrollTo: number | null;
  /** The list's range callback, wrapped: the loop looks for documents near the rows shown. */
  onRangeChange: (start: number, end: number) => void;
};

/**
 * The reading loop of a list of result cards (a feed, a search's results), as Feedly and
 * Inoreader have it: a selected card, moved with j/k (or the arrows) and kept in view, opened
 * with o or Enter, marked read or unread with m; the preview opened from the list steps to the
 * previous or next document through it (reading-list.ts), and the selection follows the
 * document shown, so the card stays marked behind the overlay. While the preview overlay is
 * open it owns j/k/m (preview-nav.tsx); the list closes it on Escape. With `beside` (the full
 * search page, whose document shows next to the list) j/k open the next document at once.
 */
export function useReadingLoop<Row extends ReadingRow>(opts: {
  total: number;
  row: (index: number) => Row | undefined;
  linkOf: (row: Row) => CardLink;
  setRange: (start: number, end: number) => void;
  /** Absent when the user may not mark documents read. */
  toggleRead?: (row: Row) => void;
  /** The document shown beside the list, if the list has one. */
  beside?: string | null;
  /** Changes whenever the rows held change (the list's loaded rows). */
  rowsVersion: unknown;
}): ReadingLoop {
  const navigate = useNavigate();
  const overlayType = useRouterState({
    select: (s) => searchString(s.location.search, 'overlay-type'),
  });
  const overlayDeeplink = useRouterState({
    select: (s) => searchString(s.location.search, 'overlay-deeplink'),
  });
  const previewed = overlayType === 'preview' ? overlayDeeplink : null;
  const opened = opts.beside ?? previewed;
  const [selected, setSelected] = useState<number | null>(null);
  const [scrollTo, setScrollTo] = useState<number | null>(null);
  const range = useRef({ start: 0, end: 0 });
  /** The selected card's document, so the selection follows it when rows are added above. */
  const selectedKey = useRef<string | null>(null);

  // The latest of everything, for the key listener and the registered list (made once each).
  const latest = useRef({ opts, selected, previewed, overlayType, navigate });
  latest.current = { opts, selected, previewed, overlayType, navigate };

  const { setRange } = opts;
  const onRangeChange = useCallback(
    (start: number, end: number) => {
      range.current = { start, end };
      setRange(start, end);
    },
    [setRange],
  );

  const indexOf = useCallback((deeplink: string): number => {
    const { opts: o, selected: at } = latest.current;
    if (at !== null && o.row(at)?.deeplink === deeplink) return at;
    const from = Math.max(0, range.current.start - LOOK_AROUND);
    const to = Math.min(o.total, range.current.end + LOOK_AROUND);
    for (let i = from; i < to; i += 1) if (o.row(i)?.deeplink === deeplink) return i;
    return -1;
  }, []);

  const open = useCallback((row: Row, replace: boolean) => {
    const link = latest.current.opts.linkOf(row);
    void latest.current.navigate({
      to: link.to,
      search: link.search as Record<string, string>,
      replace,
    });
  }, []);

  const move = useCallback((to: number) => {
    selectedKey.current = latest.current.opts.row(to)?.deeplink ?? null;
    setSelected(to);
    setScrollTo(to);
  }, []);

  // The selection follows the document shown (opened by a click, a step or another tab's
  // link), or the full-screen preview's last one on coming back from it, and otherwise its own
  // document when new rows move it down the list.
  const { rowsVersion } = opts;
  useEffect(() => {
    if (opened !== null) {
      const at = indexOf(opened);
      if (at >= 0) move(at);
      return;
    }
    if (selected === null) {
      // Back from the full-screen preview: its last document is selected here.
      const shown = shownLast();
      const at = shown === null ? -1 : indexOf(shown);
      if (at >= 0) {
        forgetShown();
        move(at);
      }
      return;
    }
    const here = latest.current.opts.row(selected)?.deeplink;
    if (here === undefined) return;
    if (selectedKey.current === null) {
      selectedKey.current = here;
      return;
    }
    if (here === selectedKey.current) return;
    // Not scrolled to: the list keeps the cards in view in place by itself.
    const at = indexOf(selectedKey.current);
    if (at >= 0) setSelected(at);
  }, [opened, selected, rowsVersion, indexOf, move]);

  // The preview steps through this list while it is on screen, and after it leaves for the
  // full-screen preview.
  useEffect(
    () =>
      provideReadingList({
        neighbour: (deeplink, by) => {
          const at = indexOf(deeplink);
          const row = at < 0 || at + by < 0 ? undefined : latest.current.opts.row(at + by);
          return row ? { deeplink: row.deeplink, title: row.title.trim() || row.label } : null;
        },
        step: (deeplink, by) => {
          const at = indexOf(deeplink);
          const row = at < 0 || at + by < 0 ? undefined : latest.current.opts.row(at + by);
          if (!row) return false;
          open(row, true);
          return true;
        },
      }),
    [rowsVersion, indexOf, open],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { opts: o, selected: at, previewed: shown, overlayType: overlay } = latest.current;
      const key = readingKeyOf(event, true);
      if (key === null) return;
      if (shown !== null) {
        // The preview overlay owns the other keys; Escape from outside it closes it.
        if (key !== 'close') return;
        event.preventDefault();
        void latest.current.navigate({
          to: '.',
          search: (prev: Record<string, unknown>) => withoutOverlayParams(prev),
        });
        return;
      }
      // Another panel (the assistant, a builder) is open over the list: its keys are its own.
      if (overlay !== null || key === 'close' || o.total === 0) return;
      const row = at === null ? undefined : o.row(at);
      if (key === 'next' || key === 'previous') {
        event.preventDefault();
        const by = key === 'next' ? 1 : -1;
        const to = at === null ? 0 : Math.min(o.total - 1, Math.max(0, at + by));
        move(to);
        const target = o.row(to);
        if (o.beside !== undefined && target && to !== at) open(target, true);
      } else if (key === 'open' && row) {
        event.preventDefault();
        open(row, false);
      } else if (key === 'toggle-read' && row && o.toggleRead) {
        event.preventDefault();
        o.toggleRead(row);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [move, open]);

  return { selected, scrollTo, onRangeChange };
}

/** A string query parameter, or null. */
function searchString(search: unknown, key: string): string | null {
  const value = (search as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' ? value : null;
}
