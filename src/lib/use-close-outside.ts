import { useEffect, type RefObject } from 'react';

/** While `open`, a pointer pressed outside `root` calls `close` (popups and pickers). */
export function useCloseOutside(
  open: boolean,
  root: RefObject<HTMLElement | null>,
  close: () => void,
) {
  useEffect(() => {
    if (!open) return undefined;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open, root, close]);
}
