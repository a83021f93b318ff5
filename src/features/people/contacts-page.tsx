import { useId, useState, type FormEvent } from 'react';
import {
  DEFAULT_PEOPLE_PRIORITY,
  PEOPLE_PRIORITIES,
  personNameProblem,
  type Contact,
  type PeoplePriority,
} from '../../../contract/people';
import { ShellLink } from '../../layout/shell-link';
import { routesFor } from '../../lib/routes';
import { userMessage } from '../../lib/user-message';
import { RetryAlert } from '../../shell/retry-alert';
import { useShell } from '../../shell-context';
import { contactText, ContactForm } from './contact-fields';
import { newPersonId, usePeople } from './people-store';
import { PRIORITY_LABELS, PrioritySelect } from './priority-select';
import './people.css';

/**
 * /settings/contacts (000 §2): the user's people with their contacts, each person's priority
 * changed in place (applied at once, reverted on error: 002 §4), and a form to add a person.
 * The list is the worker's mirror, so it opens offline and follows other tabs.
 */
export function ContactsPage() {
  const { product } = useShell();
  const r = routesFor(product);
  const { people, error } = usePeople();
  const [problem, setProblem] = useState<string | null>(null);
  const [round, setRound] = useState(0);

  let list;
  if (error !== null && people === null) {
    list = <RetryAlert error={error} onRetry={() => setRound((n) => n + 1)} />;
  } else if (people === null) {
    list = (
      <p className="muted" role="status">
        Loading people…
      </p>
    );
  } else if (people.length === 0) {
    list = <p className="muted">No people yet. Add the people whose news matters to you.</p>;
  } else {
    list = (
      <ul className="people-list" aria-label="People">
        {people.map((person) => (
          <li key={person.people_id} className="people-row" aria-label={person.people_name}>
            <ShellLink to={r.settings.contact(person.people_id)} className="people-name">
              {person.people_name}
            </ShellLink>
            <span className="muted people-contacts">
              {person.contacts.length === 0
                ? 'No contacts'
                : person.contacts.map(contactText).join(', ')}
            </span>
            <PrioritySelect person={person} onError={setProblem} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="settings-page contacts-page" key={round}>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {list}
      <AddPerson onError={setProblem} />
    </section>
  );
}

function AddPerson(props: { onError(message: string | null): void }) {
  const { client } = useShell();
  const nameId = useId();
  const priorityId = useId();
  const [name, setName] = useState('');
  const [priority, setPriority] = useState<PeoplePriority>(DEFAULT_PEOPLE_PRIORITY);
  const [contacts, setContacts] = useState<Contact[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const bad = personNameProblem(name);
    if (bad) return setProblem(bad === 'name must not be empty' ? 'Enter a name.' : bad);
    setProblem(null);
    props.onError(null);
    client
      .call('people.create', {
        people_id: newPersonId(),
        people_name: name.trim(),
        people_priority: priority,
        contacts,
      })
      .catch((failure: unknown) => props.onError(userMessage(failure)));
    setName('');
    setPriority(DEFAULT_PEOPLE_PRIORITY);
    setContacts([]);
  };
  return (
    <section className="add-person" aria-label="Add a person">
      <h2>Add a person</h2>
      <form className="settings-form" aria-label="New person" onSubmit={submit} noValidate>
        <div className="form-field">
          <label htmlFor={nameId}>Name</label>
          <input
            id={nameId}
            value={name}
            maxLength={120}
            onChange={(event) => setName(event.currentTarget.value)}
          />
        </div>
        <div className="form-field">
          <label htmlFor={priorityId}>Priority</label>
          <select
            id={priorityId}
            value={priority}
            onChange={(event) => setPriority(event.currentTarget.value as PeoplePriority)}
          >
            {PEOPLE_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {PRIORITY_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
        {contacts.length > 0 ? (
          <ul className="people-contacts-draft" aria-label="Contacts to add">
            {contacts.map((c) => (
              <li key={contactText(c)}>{contactText(c)}</li>
            ))}
          </ul>
        ) : null}
        {problem ? (
          <p className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
        <button type="submit" className="button">
          Add person
        </button>
      </form>
      <ContactForm label="Add contact" onAdd={(c) => setContacts((was) => [...was, c])} />
    </section>
  );
}
