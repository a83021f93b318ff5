import { useId, useState, type FormEvent } from 'react';
import type { Contact } from '../../../contract/people';

/** The sources a contact is usually from (any other may be typed). */
export const CONTACT_SOURCES = [
  'email',
  'whatsapp',
  'slack',
  'teams',
  'telegram',
  'phone',
] as const;

/** "ravi@example.com (email)". */
export const contactText = (c: Contact) => `${c.contact_id} (${c.contact_source})`;

/**
 * One contact's fields: where from, the address or handle, and a name. Submitting hands the
 * contact over (trimmed; the address is required) and clears the fields.
 */
export function ContactForm(props: { label: string; onAdd(contact: Contact): void }) {
  const sourceId = useId();
  const addressId = useId();
  const nameId = useId();
  const listId = useId();
  const [source, setSource] = useState('email');
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!address.trim()) return setProblem('Enter the address or handle.');
    if (!source.trim()) return setProblem('Enter where the contact is from.');
    setProblem(null);
    props.onAdd({
      contact_id: address.trim(),
      contact_name: name.trim(),
      contact_source: source.trim().toLowerCase(),
    });
    setAddress('');
    setName('');
  };
  return (
    <form className="contact-form" aria-label={props.label} onSubmit={submit} noValidate>
      <div className="form-field">
        <label htmlFor={sourceId}>Source</label>
        <input
          id={sourceId}
          list={listId}
          value={source}
          maxLength={128}
          onChange={(event) => setSource(event.currentTarget.value)}
        />
        <datalist id={listId}>
          {CONTACT_SOURCES.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      </div>
      <div className="form-field">
        <label htmlFor={addressId}>Address or handle</label>
        <input
          id={addressId}
          value={address}
          maxLength={128}
          onChange={(event) => setAddress(event.currentTarget.value)}
        />
      </div>
      <div className="form-field">
        <label htmlFor={nameId}>Name shown there (optional)</label>
        <input
          id={nameId}
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
      <button type="submit" className="button secondary">
        {props.label}
      </button>
    </form>
  );
}
