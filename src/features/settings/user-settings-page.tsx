import { useSignals } from '@preact/signals-react/runtime';
import { useId, useState, type FormEvent } from 'react';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';
import './settings.css';

/** The new password's rule, as the server holds it (contract/auth.ts). */
const PASSWORD_MIN = 8;

/**
 * /settings/user-settings (000 §2): the display name, a password change that needs the current
 * password (other sign-ins end, this one stays), and sign out everywhere. Each is a call the
 * worker makes at once (online only): a refusal shows the server's message by its form.
 */
export function UserSettingsPage() {
  useSignals();
  const { state } = useShell();
  const session = state.$session.value;
  const user = session?.status === 'signed-in' ? session.user : null;
  return (
    <section className="settings-page user-settings">
      {user ? <NameForm key={user.name} name={user.name} email={user.email} /> : null}
      <PasswordForm />
      <SignOutEverywhere />
    </section>
  );
}

function NameForm(props: { name: string; email: string }) {
  const { client } = useShell();
  const nameId = useId();
  const errorId = useId();
  const [name, setName] = useState(props.name);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!name.trim()) {
      setProblem('Enter your name.');
      return;
    }
    setBusy(true);
    try {
      await client.call('auth.updateProfile', { name: name.trim() });
      showToast('success', 'Name saved.');
    } catch (error) {
      setProblem(userMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="settings-form"
      aria-label="Your name"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h2>Your name</h2>
      <p className="muted">Signed in as {props.email}.</p>
      <div className="form-field">
        <label htmlFor={nameId}>Name</label>
        <input
          id={nameId}
          name="name"
          autoComplete="name"
          maxLength={120}
          value={name}
          aria-invalid={problem !== null || undefined}
          aria-describedby={problem ? errorId : undefined}
          onChange={(event) => setName(event.currentTarget.value)}
        />
      </div>
      {problem ? (
        <p id={errorId} className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={busy || name.trim() === props.name}>
        {busy ? 'Saving…' : 'Save name'}
      </button>
    </form>
  );
}

function PasswordForm() {
  const { client } = useShell();
  const currentId = useId();
  const nextId = useId();
  const confirmId = useId();
  const errorId = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!current) return setProblem('Enter your current password.');
    if (next.length < PASSWORD_MIN) {
      return setProblem(`The new password must be at least ${PASSWORD_MIN} characters.`);
    }
    if (next !== confirm) return setProblem('The new passwords do not match.');
    if (next === current) return setProblem('The new password must differ from the current one.');
    setBusy(true);
    try {
      await client.call('auth.changePassword', { current_password: current, password: next });
      setCurrent('');
      setNext('');
      setConfirm('');
      showToast('success', 'Password changed. Your other sign-ins have ended.');
    } catch (error) {
      setProblem(userMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const field = (
    id: string,
    label: string,
    value: string,
    set: (v: string) => void,
    auto: string,
  ) => (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        autoComplete={auto}
        value={value}
        aria-describedby={problem ? errorId : undefined}
        onChange={(event) => set(event.currentTarget.value)}
      />
    </div>
  );
  return (
    <form
      className="settings-form"
      aria-label="Change password"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h2>Change password</h2>
      {field(currentId, 'Current password', current, setCurrent, 'current-password')}
      {field(nextId, 'New password', next, setNext, 'new-password')}
      {field(confirmId, 'Confirm new password', confirm, setConfirm, 'new-password')}
      {problem ? (
        <p id={errorId} className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Changing…' : 'Change password'}
      </button>
    </form>
  );
}

function SignOutEverywhere() {
  const { client } = useShell();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const go = async () => {
    setBusy(true);
    setProblem(null);
    try {
      // The worker ends this sign-in too, and every tab hears of it.
      await client.call('auth.signOutEverywhere', {});
    } catch (error) {
      setProblem(userMessage(error));
      setBusy(false);
    }
  };
  return (
    <section className="settings-form" aria-label="Sign out everywhere">
      <h2>Sign out everywhere</h2>
      <p className="muted">Ends every sign-in of your account, on every device, this one too.</p>
      {asking ? (
        <div role="group" aria-label="Confirm signing out everywhere" className="confirm-row">
          <button type="button" className="button danger" disabled={busy} onClick={() => void go()}>
            {busy ? 'Signing out…' : 'Yes, sign out everywhere'}
          </button>
          <button
            type="button"
            className="button secondary"
            disabled={busy}
            onClick={() => setAsking(false)}
          >
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" className="button secondary" onClick={() => setAsking(true)}>
          Sign out everywhere
        </button>
      )}
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
