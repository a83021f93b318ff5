// What other features may import (eslint.config.js: only through this file).
export { parseHighlightParam, parseViewerParams } from './citations';
