import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import {
  contactKey,
  personNameProblem,
  type PeoplePriority,
  type Person,
} from '../../../contract/people';
import { routesFor } from '../../lib/routes';
import { userMessage } from '../../lib/user-message';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { useShell } from '../../shell-context';
import { contactText, ContactForm } from './contact-fields';
import { usePerson } from './people-store';
import { PRIORITY_LABELS, PrioritySelect } from './priority-select';
import './people.css';

/**
 * /settings/contacts/{id}: one person: their name, priority (applied at once, reverted on
 * error), contacts (added and removed) and deletion (asked first). Every write is the worker's
 * optimistic `people.edit` / `people.delete`; a refusal is shown here and the mirror puts the
 * person back as the server holds them.
 */
export function PersonPage() {
  const params = useParams({ strict: false }) as { id?: string };
  const id = params.id ?? '';
  const person = usePerson(id);
  const [problem, setProblem] = useState<string | null>(null);
  if (person === undefined) {
    return (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  }
  if (person === null) {
    return (
      <section className="settings-page person-page">
        <p role="alert">There is no such person among your contacts.</p>
      </section>
    );
  }
  return (
    <section className="settings-page person-page" aria-label={person.people_name}>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <NameForm key={person.people_name} person={person} onError={setProblem} />
      <div className="form-field">
        <span>Priority</span> <PrioritySelect person={person} onError={setProblem} />
      </div>
      <PriorityView person={person} />
      <Contacts person={person} onError={setProblem} />
      <DeletePerson person={person} onError={setProblem} />
    </section>
  );
}

/** Where documents naming a person of each priority come in the feed's "priority" view. */
const PRIORITY_PLACE: Record<PeoplePriority, string> = {
  HIGH: 'first',
  MEDIUM: 'after those of high-priority people',
  LOW: 'after those of high- and medium-priority people',
};

/**
 * What the person's priority does (server/boards/priority.ts): a badge with it, and the feed's
 * "priority" view (/feeds/home?sort=priority), where documents naming the person rank by it.
 */
function PriorityView(props: { person: Person }) {
  const { product } = useShell();
  const { people_priority: priority, people_name: name } = props.person;
  return (
    <p className="person-priority-view">
      <span className={`priority-badge priority-${priority.toLowerCase()}`}>
        {PRIORITY_LABELS[priority]} priority
      </span>{' '}
      Documents that name {name} come {PRIORITY_PLACE[priority]} in your feed&apos;s{' '}
      <Link to={routesFor(product).feeds.home} search={{ sort: 'priority' } as never}>
        priority view
      </Link>
      .
    </p>
  );
}

function useEdit(person: Person, onError: (message: string | null) => void) {
  const { client } = useShell();
  return (edit: { name?: string; contacts?: Person['contacts'] }) => {
    onError(null);
    client
      .call('people.edit', { id: person.people_id, edit })
      .catch((failure: unknown) => onError(userMessage(failure)));
  };
}

function NameForm(props: { person: Person; onError(message: string | null): void }) {
  const inputId = useId();
  const [name, setName] = useState(props.person.people_name);
  const [problem, setProblem] = useState<string | null>(null);
  const edit = useEdit(props.person, props.onError);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const bad = personNameProblem(name);
    if (bad) return setProblem(bad === 'name must not be empty' ? 'Enter a name.' : bad);
    setProblem(null);
    if (name.trim() !== props.person.people_name) edit({ name: name.trim() });
  };
  return (
    <form className="settings-form" aria-label="Name" onSubmit={submit} noValidate>
      <div className="form-field">
        <label htmlFor={inputId}>Name</label>
        <input
          id={inputId}
          value={name}
          maxLength={120}
          onChange={(event) => setName(event.currentTarget.value)}
        />
      </div>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={name.trim() === props.person.people_name}>
        Save name
      </button>
    </form>
  );
}

function Contacts(props: { person: Person; onError(message: string | null): void }) {
  const { person } = props;
  const edit = useEdit(person, props.onError);
  return (
    <section aria-label="Contacts">
      <h2>Contacts</h2>
      {person.contacts.length === 0 ? (
        <p className="muted">No contacts yet.</p>
      ) : (
        <ul className="person-contacts" aria-label={`Contacts of ${person.people_name}`}>
          {person.contacts.map((c) => (
            <li key={contactKey(c)}>
              <span>{contactText(c)}</span>
              {c.contact_name ? <span className="muted">{c.contact_name}</span> : null}
              <button
                type="button"
                className="button secondary small"
                aria-label={`Remove ${contactText(c)}`}
                onClick={() =>
                  edit({
                    contacts: person.contacts.filter((o) => contactKey(o) !== contactKey(c)),
                  })
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <ContactForm
        label="Add contact"
        onAdd={(c) => {
          if (person.contacts.some((o) => contactKey(o) === contactKey(c))) {
            props.onError(`${contactText(c)} is already one of ${person.people_name}'s contacts.`);
            return;
          }
          edit({ contacts: [...person.contacts, c] });
        }}
      />
    </section>
  );
}

function DeletePerson(props: { person: Person; onError(message: string | null): void }) {
  const { client, product } = useShell();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const { person } = props;
  const remove = () => {
    setAsking(false);
    client
      .call('people.delete', { id: person.people_id })
      .catch((failure: unknown) => props.onError(userMessage(failure)));
    void navigate({ to: routesFor(product).settings.contacts });
  };
  return (
    <>
      <button type="button" className="button secondary danger" onClick={() => setAsking(true)}>
        Delete person
      </button>
      {asking ? (
        <ConfirmDialog
          title={`Delete ${person.people_name}?`}
          action="Delete person"
          onConfirm={remove}
          onCancel={() => setAsking(false)}
        >
          {`${person.people_name} and their ${person.contacts.length} contact${person.contacts.length === 1 ? '' : 's'} are deleted.`}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
