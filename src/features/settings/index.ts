// What other features may import (eslint.config.js: only through this file). The settings
// screens are lazy screens (src/screens/lazy-screens.ts imports them directly).
export { settingsEntries } from './settings-page';
