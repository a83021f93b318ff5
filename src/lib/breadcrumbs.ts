import { pathSegments } from './path';
import { labelOfSegments } from './route-labels';
import { sourceTitle } from './sources';

export type Breadcrumb = { label: string; href: string | null; bold: boolean };

/** Segment labels the spec fixes (000 §2, 002 §2); other segments are source keys or names. */
const SEGMENT_LABELS: Record<string, string> = {
  channels: 'Groups',
  members: 'Members',
  feeds: 'Feeds',
};

/**
 * Breadcrumbs (000 §2): "Home" first, then one per path segment, each linking to the path up
 * to it; the last is bold and not a link. `names` maps a segment (a channel id, a feed id) to
 * the name to show. A route with a label of its own reads it (the words its page heading uses:
 * "AskNeedl", "User Settings"); other source keys read as their catalogue titles.
 * /settings/tags is the "Tags Manager" page, whose trail skips the settings segment.
 */
export function breadcrumbs(
  pathname: string,
  opts: { product: string; names?: Record<string, string> },
): Breadcrumb[] {
  const segments = pathSegments(pathname);
  const trail: Array<{ label: string; href: string }> = [{ label: 'Home', href: '/' }];
  segments.forEach((segment, i) => {
    const href = `/${segments
      .slice(0, i + 1)
      .map((s) => encodeURIComponent(s))
      .join('/')}`;
    if (segment === 'settings' && i === 0 && segments[1] === 'tags') return;
    trail.push({ label: labelFor(segments, i, opts), href });
  });
  return trail.map((crumb, i) =>
    i === trail.length - 1
      ? { label: crumb.label, href: null, bold: true }
      : { label: crumb.label, href: crumb.href, bold: false },
  );
}

function labelFor(
  segments: string[],
  i: number,
  opts: { product: string; names?: Record<string, string> },
): string {
  const segment = segments[i];
  if (opts.names && Object.hasOwn(opts.names, segment)) return opts.names[segment];
  // A preview's document id is no name: the trail says what it is (issue 18).
  if (segments[0] === 'preview' && i === 2) return 'Document';
  const ofRoute = labelOfSegments(segments, i + 1, opts.product);
  if (ofRoute !== undefined) return ofRoute;
  if (Object.hasOwn(SEGMENT_LABELS, segment)) return SEGMENT_LABELS[segment];
  return sourceTitle(segment, opts.product);
}
