/**
 * The in-process signal that a user's change sequence moved: changes.ts raises it for every
 * change it writes, and the live route (live.ts) listens. It is raised inside the writing
 * transaction, before the change is visible to other readers, so a listener treats it as a hint
 * and reads the committed sequence itself (again shortly, if it has not moved yet). Changes
 * written by other server processes raise nothing here: the live route also polls.
 */

export type ChangeListener = (userId: string, seq: number) => void;

const listeners = new Set<ChangeListener>();

export const onChangeWritten = (listener: ChangeListener): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const signalChange = (userId: string, seq: number): void => {
  for (const listener of listeners) {
    try {
      listener(userId, seq);
    } catch {
      // A listener's failure must never fail the write that signalled.
    }
  }
};
