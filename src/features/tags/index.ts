// What other features may import (eslint.config.js: only through this file). The needlbox
// pages are lazy screens (src/screens/lazy-screens.ts imports needlbox-page.tsx directly).
export { DocumentTagControls } from './tag-controls';
export { useDocumentTags, useUserTags, type DocumentTagsState } from './tag-store';
