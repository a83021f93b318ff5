// What other features may import (eslint.config.js: only through this file). Leaves first, so
// a feature that reaches back here through the preview finds them evaluated.
export { fullPreviewSearch, originalLink, previewSearch } from './card-rules';
export { PillTags } from './pill-tags';
export {
  ALL_TAB,
  isFeedTab,
  selectedTab,
  type ShownTab,
  shownTabs,
  type TabKey,
  windowTab,
} from './feed-tabs';
export { sanitizeHighlightHtml } from './sanitize-html';
export {
  CARD_HEIGHT_DESKTOP,
  CARD_HEIGHT_MOBILE,
  type CardLink,
  cardLink,
  type BoardEntryRow,
  ResultCardView,
} from './result-card';
export { isTyping } from './reading-keys';
export { useReadingLoop } from './use-reading-loop';
export { PreviewPanel } from './preview-panel';
