import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { AskAnswer, Citation } from '../../../contract/assistant';
import { overlayVisible, withoutOverlayParams } from '../../lib/overlay';
import { useViewportWidth } from '../../layout/use-viewport-width';
import { citationTarget, citationsOf } from './citations';
import type { CitationLinks } from './citation-store';

/** The full-screen preview address of a citation (with the viewer's page and box), or null. */
export function citationPageHref(citation: Citation): string | null {
  const target = citationTarget(citation);
  if (!target) return null;
  return `${target.href}?${new URLSearchParams(target.page)}`;
}

/**
 * Opening a citation (001 §2): the preview overlay beside the page, marking the cited passage
 * (and, for a document with pages, the viewer's page and box); on tablets and smaller, where
 * overlays do not show, the full-screen preview. The overlay's parameters go with its other
 * overlay- ones, so closing it removes them all.
 */
export function useCitationLinks(data: AskAnswer | null): CitationLinks {
  const navigate = useNavigate();
  const beside = overlayVisible(useViewportWidth());
  return useMemo(() => {
    const byId = new Map(citationsOf(data).map((c) => [c.id, c] as const));
    const open = (citation: Citation) => {
      const target = citationTarget(citation);
      if (!target) return;
      if (beside) {
        void navigate({
          to: '.',
          search: (prev: Record<string, unknown>) => ({
            ...withoutOverlayParams(prev),
            ...target.overlay,
          }),
        });
      } else {
        void navigate({ to: target.href, search: target.page });
      }
    };
    return { byId, hrefOf: citationPageHref, open };
  }, [data, beside, navigate]);
}
