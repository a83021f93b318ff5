/** What bench/feed's init script records in the page. */
export type PageProbe = {
  /** performance.now() when the first result card was painted. */
  firstCard: number | null;
  longTasks: Array<{ start: number; duration: number }>;
};

/**
 * The baseline, run in the page: what a page
 * that loads the whole feed before rendering pays. Reads every entry of the mirror's feed store
 * with one getAll, renders every card (source, title, snippet) into the document, and waits for
 * the frame that paints them. Answers the milliseconds taken; removes what it rendered. A
 * string, not a function: tsx would wrap a function's inner functions in a helper the page
 * lacks.
 */
export const LOAD_EVERYTHING = `(async () => {
  const started = performance.now();
  const open = indexedDB.open('needl-workspace');
  const db = await new Promise((resolve, reject) => {
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const req = db.transaction('feed_entries').objectStore('feed_entries').getAll();
  const rows = await new Promise(
    (resolve) => (req.onsuccess = () => resolve(req.result)),
  );
  db.close();
  const host = document.createElement('div');
  host.style.cssText = 'position:absolute;left:0;top:0;width:800px;visibility:visible';
  const card = (row) => {
    const inner = (row.card ?? row);
    const el = document.createElement('article');
    el.className = 'result-card';
    const meta = document.createElement('p');
    meta.textContent = String(inner.label ?? '');
    const title = document.createElement('h3');
    title.textContent = String(inner.title ?? '');
    const text = document.createElement('p');
    text.textContent = String(inner.plain_text ?? '');
    el.append(meta, title, text);
    return el;
  };
  for (const row of rows) host.append(card(row));
  document.body.append(host);
  void host.offsetHeight;
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const took = performance.now() - started;
  host.remove();
  return took;
})()`;
