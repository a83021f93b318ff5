// What other features may import (eslint.config.js: only through this file). The contacts
// screens are lazy screens (src/screens/lazy-screens.ts imports them directly).
export { PrioritySelect, PRIORITY_LABELS } from './priority-select';
export { usePeople, usePerson, usePersonName } from './people-store';
