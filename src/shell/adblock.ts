/**
 * Whether an ad blocker is installed: blockers hide elements with ad-like class names, so a
 * bait element that renders with no height gives them away. Measured once per page.
 */
export function detectAdblocker(doc: Document = document): boolean {
  const bait = doc.createElement('div');
  bait.className = 'adsbox ad-banner pub_300x250 text-ad';
  bait.setAttribute('aria-hidden', 'true');
  bait.style.cssText = 'position:absolute;left:-9999px;top:-9999px;width:1px;height:1px;';
  doc.body.appendChild(bait);
  const style = doc.defaultView?.getComputedStyle(bait);
  const hidden =
    bait.offsetHeight === 0 || style?.display === 'none' || style?.visibility === 'hidden';
  bait.remove();
  return hidden;
}
