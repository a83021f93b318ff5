/**
 * What bench/organise runs in the page. Strings, not functions: tsx would wrap a function's
 * inner functions in a helper the page lacks.
 */

/** What the init script records in each page. */
export type OrganiseProbe = {
  longTasks: Array<{ start: number; duration: number }>;
  /** The needlbox list: when its "Loading…" showed, and when its first card was painted. */
  loadingAt: number | null;
  firstCard: number | null;
  /** When the page's first card in a list was painted (any list: a feed's, a tag's). */
  firstListCard: number | null;
  /** The second tab's watch: the document and tag waited for, and when its pill was painted. */
  watch: { deeplink: string; tag: string; seenAt: number | null } | null;
};

/**
 * Installed before any script of the page: long tasks, the needlbox list's first card (from
 * its "Loading…" to the first card painted) and, once `watch` is set, the epoch milliseconds
 * (performance.timeOrigin + now, comparable across tabs) at which the watched card's pill for
 * the watched tag was painted.
 */
export const PROBE_SCRIPT = `
  window.__organise = { longTasks: [], loadingAt: null, firstCard: null, firstListCard: null, watch: null };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__organise.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const probe = window.__organise;
  const pillShown = (w) => {
    const card = document.querySelector('article[data-deeplink="' + CSS.escape(w.deeplink) + '"]');
    if (!card) return false;
    return [...card.querySelectorAll('.user-tags li')].some((li) => li.textContent === w.tag);
  };
  new MutationObserver(() => {
    if (probe.loadingAt === null && document.querySelector('.needlbox-page [role=status]')) {
      probe.loadingAt = performance.now();
    }
    if (probe.loadingAt !== null && probe.firstCard === null && document.querySelector('.needlbox-cards .result-card')) {
      probe.firstCard = -1;
      requestAnimationFrame(() => setTimeout(() => { probe.firstCard = performance.now(); }, 0));
    }
    if (probe.firstListCard === null && document.querySelector('[role=list] .result-card')) {
      probe.firstListCard = -1;
      requestAnimationFrame(() => setTimeout(() => { probe.firstListCard = performance.now(); }, 0));
    }
    const w = probe.watch;
    if (w && w.seenAt === null && w.pending !== true && pillShown(w)) {
      w.pending = true;
      requestAnimationFrame(() => setTimeout(() => { w.seenAt = performance.timeOrigin + performance.now(); }, 0));
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

/**
 * In the acting tab: the next card to tag (the first in list order whose pills lack `tag`),
 * scrolled to the middle of the list; answers its deeplink and the list's scrollTop, or
 * `{ wait: true }` when none is ready (its tags not read yet, or none rendered: the list is
 * then scrolled on a screen).
 */
export const NEXT_CARD = `(tag) => {
  const items = [...document.querySelectorAll('[role=listitem][aria-posinset]')]
    .sort((a, b) => Number(a.getAttribute('aria-posinset')) - Number(b.getAttribute('aria-posinset')));
  for (const item of items) {
    const card = item.querySelector('article[data-deeplink]');
    if (!card) continue;
    const pills = [...card.querySelectorAll('.user-tags li')].map((li) => li.textContent);
    if (pills.includes(tag)) continue;
    // Its tags not read yet (the bookmark toggle is disabled until then): wait for them.
    if (!card.querySelector('.bookmark-toggle:not([disabled])')) return { wait: true };
    card.scrollIntoView({ block: 'center' });
    const list = card.closest('[role=list]');
    return { deeplink: card.getAttribute('data-deeplink'), scrollTop: list ? list.scrollTop : 0 };
  }
  const list = document.querySelector('[role=list][aria-label="Feed documents"]');
  if (list) list.scrollTop += list.clientHeight;
  return { wait: true };
}`;

/**
 * In the second tab: shows the card (the list scrolled as the acting tab's) and watches for
 * its pill of `tag`; answers whether the card is rendered.
 */
export const SHOW_AND_WATCH = `([deeplink, tag, scrollTop]) => {
  const list = document.querySelector('[role=list][aria-label="Feed documents"]');
  if (list && list.scrollTop !== scrollTop) list.scrollTop = scrollTop;
  const card = document.querySelector('article[data-deeplink="' + CSS.escape(deeplink) + '"]');
  if (!card) return false;
  window.__organise.watch = { deeplink, tag, seenAt: null };
  return true;
}`;

/**
 * In the acting tab: opens the card's tag picker, chooses `tag`, and answers when the click
 * was made (epoch ms), whether the pill was in the document before the next frame, the frames
 * until it was, and the milliseconds from the click to that frame painted. Closes the picker.
 */
export const TAG_CARD = `async ([deeplink, tag]) => {
  const card = document.querySelector('article[data-deeplink="' + CSS.escape(deeplink) + '"]');
  const toggle = card.querySelector('.tag-picker-toggle');
  toggle.click();
  await new Promise((r) => setTimeout(r, 0));
  const option = [...card.querySelectorAll('.tag-picker-option')].find((b) => b.textContent === tag);
  if (!option) return { error: 'no option ' + tag };
  const shown = () => [...card.querySelectorAll('.user-tags li')].some((li) => li.textContent === tag);
  const clickedAt = performance.timeOrigin + performance.now();
  const started = performance.now();
  option.click();
  let frames = 0;
  for (;;) {
    await new Promise((r) => requestAnimationFrame(r));
    frames += 1;
    if (shown() || frames > 60) break;
  }
  await new Promise((r) => setTimeout(r, 0));
  const paintedMs = performance.now() - started;
  const pressed = option.getAttribute('aria-pressed') === 'true';
  toggle.click();
  await new Promise((r) => setTimeout(r, 0));
  return { clickedAt, frames, paintedMs, pressed };
}`;

/**
 * The baseline for the tag page, run in the page: read the tag's documents whole from the
 * mirror (every link of the tag by its index, each holding its document's card), render every
 * card, and wait for the frame that paints them. Answers the milliseconds taken and how many
 * cards were rendered; removes what it rendered.
 */
export const READ_TAG_WHOLE = `async (tagId) => {
  const started = performance.now();
  const open = indexedDB.open('needl-workspace');
  const db = await new Promise((resolve, reject) => {
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const tx = db.transaction(['document_tags']);
  const linksReq = tx.objectStore('document_tags').index('by_tag').getAll(IDBKeyRange.only(tagId));
  const links = await new Promise((resolve) => (linksReq.onsuccess = () => resolve(linksReq.result)));
  db.close();
  const host = document.createElement('div');
  host.style.cssText = 'position:absolute;left:0;top:0;width:800px;visibility:visible';
  let rendered = 0;
  for (const link of links) {
    const inner = link.card;
    if (!inner) continue;
    const el = document.createElement('article');
    el.className = 'result-card';
    const meta = document.createElement('p');
    meta.textContent = String(inner.label ?? '');
    const title = document.createElement('h3');
    title.textContent = String(inner.title ?? '');
    const text = document.createElement('p');
    text.textContent = String(inner.plain_text ?? '');
    el.append(meta, title, text);
    host.append(el);
    rendered += 1;
  }
  document.body.append(host);
  void host.offsetHeight;
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const took = performance.now() - started;
  host.remove();
  return { took, rendered, links: links.length };
}`;

/**
 * In the page showing a tag: scrolls its list to `fraction` of its height and answers when
 * (ms from the scroll) a card at that depth was painted, and its place (aria-posinset).
 */
export const SCROLL_DEEP = `async (fraction) => {
  const list = document.querySelector('.needlbox-cards[role=list]');
  if (!list) return { error: 'no tag list' };
  const started = performance.now();
  list.scrollTop = Math.floor(list.scrollHeight * fraction);
  const want = Math.floor(Number(list.querySelector('[aria-setsize]')?.getAttribute('aria-setsize') ?? 0) * fraction * 0.9);
  for (let frames = 0; frames < 600; frames++) {
    await new Promise((r) => requestAnimationFrame(r));
    const deep = [...list.querySelectorAll('[role=listitem][aria-posinset]')].find(
      (item) => Number(item.getAttribute('aria-posinset')) >= want && item.querySelector('.result-card'),
    );
    if (deep) {
      await new Promise((r) => setTimeout(r, 0));
      return { took: performance.now() - started, at: Number(deep.getAttribute('aria-posinset')) };
    }
  }
  return { error: 'no card painted at depth' };
}`;

/**
 * In a page whose list has painted its first card: from the list's first window asked
 * (use-windowed-list.ts marks `list:<op>`) to that card painted, in ms; null without the mark.
 */
export const FIRST_WINDOW = `(op) => {
  const mark = performance.getEntriesByName('list:' + op)[0];
  const painted = window.__organise.firstListCard;
  return mark && painted > 0 ? painted - mark.startTime : null;
}`;
