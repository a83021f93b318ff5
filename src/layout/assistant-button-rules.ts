import { isMobile } from '../lib/breakpoints';
import { assistantOverlayAllowed } from '../lib/overlay';
import { normalizePath, routesFor } from '../lib/routes';

export type AssistantButtonMode = 'hidden' | 'disabled' | 'enabled';

const isAt = (path: string, base: string) => path === base || path.startsWith(`${base}/`);
const hasSegment = (path: string, segment: string) => path.split('/').includes(segment);

/**
 * The floating assistant button (000 §2): hidden on mobile, settings, notebooks, the assistants
 * manager, dashboards, the report full page, needlbox, full-screen views, the landing route and
 * when ask_{product}_copilot is off; disabled on bookmarks, clipped reports, tags, comments,
 * assistants, app sources, notebooks and connect pages. The button opens the assistant overlay;
 * on a tablet, where overlays are not shown (000 §2 "Overlays"), it opens the assistant page
 * instead, so the assistant is reachable at every width (issue 18). On a phone the navigation
 * drawer's assistant entry reaches it.
 */
export function assistantButtonMode(
  pathname: string,
  opts: { product: string; flags: Record<string, boolean>; viewportWidth: number },
): AssistantButtonMode {
  const path = normalizePath(pathname);
  const r = routesFor(opts.product);
  const hidden =
    // The flag off, or in notebooks (the note preview /preview/{product}_notebooks/... too):
    // where the overlay the button opens is not allowed, the button is not shown.
    !assistantOverlayAllowed(path, opts) ||
    isMobile(opts.viewportWidth) ||
    isAt(path, r.settings.root) ||
    isAt(path, r.managers.assistants) ||
    hasSegment(path, 'dashboard') ||
    isAt(path, r.report.root) ||
    isAt(path, r.needlbox.root) ||
    hasSegment(path, 'full') ||
    isAt(path, r.landing);
  if (hidden) return 'hidden';
  const disabled =
    hasSegment(path, 'bookmarks') ||
    hasSegment(path, 'clipped_reports') ||
    hasSegment(path, 'tags') ||
    hasSegment(path, 'comments') ||
    isAt(path, r.assistant.base) ||
    (isAt(path, r.apps) && path !== r.apps) ||
    hasSegment(path, 'notebooks') ||
    isAt(path, r.connect.root);
  return disabled ? 'disabled' : 'enabled';
}
