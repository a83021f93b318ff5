/**
 * The reading loop's shortcuts, as Feedly and Inoreader have them: j or ArrowDown next,
 * k or ArrowUp previous, o or Enter open, m toggle read, Escape close the preview. None of them
 * acts while the user types (an input, a textarea, a select or editable content), with a
 * modifier held, or when something already handled the key.
 */
export type ReadingKey = 'next' | 'previous' | 'open' | 'toggle-read' | 'close';

/** Whether `target` takes typed text, so a letter typed there is text, not a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[contenteditable="true"]')) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

/** Elements whose own Enter (or arrows) the browser already acts on. */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (key === 'Enter') return target.closest('a[href], button, [role="button"]') !== null;
  if (key === 'ArrowDown' || key === 'ArrowUp') {
    return target.closest('[role="separator"], [role="tablist"], [role="menu"]') !== null;
  }
  return false;
}

/**
 * What a key press means in a list (`arrows` true) or in the preview (`arrows` false, so the
 * arrows keep scrolling the document being read), or null for a key that is not a shortcut here.
 */
export function readingKeyOf(event: KeyboardEvent, arrows: boolean): ReadingKey | null {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isTyping(event.target) || ownsKey(event.target, event.key)) return null;
  // A modal (the session's, a confirmation) has the user's attention: the list behind waits.
  if (event.target instanceof Element && event.target.closest('dialog, [aria-modal="true"]')) {
    return null;
  }
  switch (event.key) {
    case 'j':
      return 'next';
    case 'k':
      return 'previous';
    case 'ArrowDown':
      return arrows ? 'next' : null;
    case 'ArrowUp':
      return arrows ? 'previous' : null;
    case 'o':
    case 'Enter':
      return 'open';
    case 'm':
      return 'toggle-read';
    case 'Escape':
      return 'close';
    default:
      return null;
  }
}
