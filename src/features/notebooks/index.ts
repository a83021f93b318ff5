// What other features may import (eslint.config.js: only through this file). The notebooks
// pages are lazy screens (src/screens/lazy-screens.ts imports them directly).
export { AddToNotebookButton, SaveToNoteButton } from './save-to-note';
export { useNotebooks } from './notebook-store';
export type { NoteCitation } from './note-format';
