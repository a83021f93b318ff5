// What other features may import (eslint.config.js: only through this file).
export { SourceHeader } from './source-header';
export { useFollowedSources } from './use-sources';
