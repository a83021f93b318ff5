import { useEffect, useId, useState } from 'react';
import { PEOPLE_PRIORITIES, type PeoplePriority, type Person } from '../../../contract/people';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';

/** How each priority reads. */
export const PRIORITY_LABELS: Record<PeoplePriority, string> = {
  HIGH: 'High',
  MEDIUM: 'Medium',
  LOW: 'Low',
};

/**
 * A person's priority (002 §4: "Contact priority change: applied at once, reverted on error"):
 * the choice shows at once, goes to the worker (optimistic through the outbox), and comes back
 * to what it was, with the server's message, when the server refuses.
 */
export function PrioritySelect(props: { person: Person; onError(message: string): void }) {
  const { client } = useShell();
  const { person } = props;
  const id = useId();
  const [shown, setShown] = useState<PeoplePriority>(person.people_priority);
  // The mirror's value wins whenever it moves (a change from elsewhere, a rollback).
  useEffect(() => setShown(person.people_priority), [person.people_priority]);
  return (
    <span className="priority-select">
      <label className="visually-hidden" htmlFor={id}>
        Priority of {person.people_name}
      </label>
      <select
        id={id}
        value={shown}
        data-priority={shown}
        onChange={(event) => {
          const before = shown;
          const next = event.currentTarget.value as PeoplePriority;
          setShown(next);
          client
            .call('people.edit', { id: person.people_id, edit: { priority: next } })
            .catch((failure: unknown) => {
              setShown((now) => (now === next ? before : now));
              props.onError(userMessage(failure));
            });
        }}
      >
        {PEOPLE_PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {PRIORITY_LABELS[p]}
          </option>
        ))}
      </select>
    </span>
  );
}
