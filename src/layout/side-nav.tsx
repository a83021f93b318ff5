import { useSignals } from '@preact/signals-react/runtime';
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import type { Board } from '../../contract/boards';
import type { NavMachine } from '../lib/nav-machine';
import { assistantLabel } from '../lib/product';
import { routesFor } from '../lib/routes';
import { useShell } from '../shell-context';
import { useLeadsSomewhere } from './built-routes';
import { ShellLink } from './shell-link';
import { useBoards } from './use-entity-names';
import { NAV_WIDTH_PX } from './use-nav-machine';

type NavItem = { label: string; to: string; flag?: string; title?: string };

/** The longest a feed's name reads in the navigation; the whole name is its tooltip. */
const FEED_NAME_MAX = 28;

function navItems(
  product: string,
  boards: readonly Board[],
): Array<{ heading?: string; items: NavItem[] }> {
  const r = routesFor(product);
  return [
    {
      items: [
        { label: 'My Data', to: r.feeds.home, flag: 'my_data' },
        { label: 'Feeds', to: r.feeds.root },
        { label: 'Groups', to: r.channels },
        { label: 'Search', to: r.search.root, flag: 'search' },
        { label: assistantLabel(product), to: r.assistant.base },
      ],
    },
    {
      // The user's own feeds (home is My Data, above), under my_feeds. Making and managing
      // feeds is always offered, with or without feeds yet (issue 18).
      heading: 'My Feeds',
      items: [
        { label: 'New feed', to: r.customFeed },
        { label: 'Feed Manager', to: r.settings.feedsRoot },
        ...boards
          .filter((board) => board.enabled)
          .map((board) => ({
            label:
              board.board_name.length > FEED_NAME_MAX
                ? `${board.board_name.slice(0, FEED_NAME_MAX - 1)}…`
                : board.board_name,
            title: board.board_name,
            to: r.feeds.feed(board.board_id),
            flag: 'my_feeds',
          })),
      ],
    },
    {
      heading: 'Library',
      items: [
        { label: 'Notebooks', to: r.notebooks, flag: 'notebooks' },
        { label: 'Bookmarks', to: r.needlbox.bookmarks, flag: 'bookmarks' },
        { label: 'Tags', to: r.needlbox.tags, flag: 'tags' },
        { label: 'Comments', to: r.needlbox.comments, flag: 'comments' },
      ],
    },
    {
      // Following a source is always offered, not only by an empty feed (issue 18).
      heading: 'Sources',
      items: [
        { label: 'Add source', to: r.connect.rss },
        { label: 'Browse sources', to: r.connect.website },
        { label: 'Ingestion status', to: r.settings.feeds },
        { label: 'Apps', to: r.apps },
        { label: 'Connect', to: r.connect.root },
      ],
    },
  ];
}

const isAt = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

/**
 * The side navigation (000 §4). Its state lives in $navState; the hot zone at the left edge
 * peeks it while closed (never during an overlay resize drag), and the machine hides it when
 * the mouse moves away.
 */
export function SideNav(props: { machine: NavMachine; drawer?: boolean }) {
  useSignals();
  const { state, product } = useShell();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const boards = useBoards() ?? [];
  const groups = navItems(product, boards);
  const navState = state.$navState.value;
  const flags = state.$flags.value;
  // An entry whose feature is not built yet (a placeholder route) is not shown (issue 18).
  const leadsSomewhere = useLeadsSomewhere();
  const shown = navState !== 'closed';
  // A drawer (phones) closes once an entry is chosen, and by its scrim or Escape.
  const { machine, drawer } = props;
  const openDrawer = drawer === true && (navState === 'open' || navState === 'opened');
  const lastPath = useRef(pathname);
  useEffect(() => {
    if (lastPath.current === pathname) return;
    lastPath.current = pathname;
    if (drawer) machine.dispatch({ type: 'close', source: 'user' });
  }, [pathname, drawer, machine]);
  useEffect(() => {
    if (!openDrawer) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') machine.dispatch({ type: 'close', source: 'user' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [openDrawer, machine]);
  // While an overlay's edge is dragged the pointer is the drag's, not a request to peek.
  const resizing = state.$overlayResizing.value;
  // The most specific item is the current one: /feeds/home is My Data, not Feeds as well.
  const current = groups
    .flatMap((group) => group.items)
    .filter((item) => isAt(pathname, item.to))
    .sort((a, b) => b.to.length - a.to.length)[0]?.to;

  return (
    <>
      {navState === 'closed' && !resizing ? (
        <div
          className="nav-peek-zone"
          data-testid="nav-peek-zone"
          aria-hidden="true"
          onMouseEnter={() => {
            if (!state.$overlayResizing.peek()) {
              props.machine.dispatch({ type: 'peek', source: 'user' });
            }
          }}
        />
      ) : null}
      {openDrawer ? (
        <div
          className="nav-scrim"
          data-testid="nav-scrim"
          aria-hidden="true"
          onClick={() => machine.dispatch({ type: 'close', source: 'user' })}
        />
      ) : null}
      <nav
        id="side-nav"
        className={drawer ? 'side-nav drawer' : 'side-nav'}
        data-state={navState}
        aria-label="Main navigation"
        aria-hidden={shown ? undefined : true}
        style={{ width: NAV_WIDTH_PX }}
        inert={shown ? undefined : true}
      >
        {groups.map((group, i) => {
          const items = group.items.filter(
            (item) => (!item.flag || flags[item.flag] === true) && leadsSomewhere(item.to),
          );
          if (items.length === 0) return null;
          return (
            <div className="nav-group" key={group.heading ?? i}>
              {group.heading ? <p className="nav-heading">{group.heading}</p> : null}
              <ul>
                {items.map((item) => (
                  <li key={item.to}>
                    <ShellLink
                      to={item.to}
                      title={item.title}
                      className={item.to === current ? 'nav-link active' : 'nav-link'}
                      aria-current={item.to === current ? 'page' : undefined}
                    >
                      {item.label}
                    </ShellLink>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
    </>
  );
}
