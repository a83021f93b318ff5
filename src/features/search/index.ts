// What other features may import (eslint.config.js: only through this file).
export { clearMarks, markMatches, plainTextHtml, type PreviewHighlight } from './mark-text';
export { browserTimeZone } from './search-view';
