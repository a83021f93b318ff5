import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { SignUpBody } from '../../../contract/auth';
import { useShell } from '../../shell-context';
import { AuthLayout, FormError, SubmitButton } from './auth-layout';
import { FormField } from './form-field';
import { useAuthForm } from './use-auth-form';
import { useCompleteSignIn } from './use-complete-sign-in';

const LABELS = {
  name: 'Name',
  email: 'E-mail',
  password: 'Password',
  organization: 'Organisation',
};

/** /auth/platform-access: sign-up. */
export function SignUpPage() {
  const { client } = useShell();
  const completeSignIn = useCompleteSignIn();
  const [values, setValues] = useState({ name: '', email: '', password: '', organization: '' });

  const set = (field: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const { errors, formError, busy, onSubmit } = useAuthForm({
    labels: LABELS,
    parse: () => {
      const organization = values.organization.trim();
      return SignUpBody.safeParse({
        name: values.name,
        email: values.email,
        password: values.password,
        // Optional: an empty box means "none", not an empty name.
        ...(organization ? { organization } : {}),
      });
    },
    send: (body) => completeSignIn(() => client.call('auth.signUp', body)),
  });

  return (
    <AuthLayout title="Create your account" subtitle="Get access to the research workspace.">
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label="Create account">
        <FormField
          id="name"
          label={LABELS.name}
          autoComplete="name"
          value={values.name}
          onChange={set('name')}
          error={errors.name}
          disabled={busy}
          required
        />
        <FormField
          id="email"
          label={LABELS.email}
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          error={errors.email}
          disabled={busy}
          required
        />
        <FormField
          id="password"
          label={LABELS.password}
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={errors.password}
          disabled={busy}
          required
        />
        <FormField
          id="organization"
          label={`${LABELS.organization} (optional)`}
          autoComplete="organization"
          value={values.organization}
          onChange={set('organization')}
          error={errors.organization}
          disabled={busy}
        />
        <SubmitButton busy={busy} label="Create account" busyLabel="Creating account…" />
        <FormError message={formError} />
      </form>
      <nav className="auth-links" aria-label="Other account actions">
        <span>
          Already have an account? <Link to="/auth/signin">Sign in</Link>
        </span>
      </nav>
    </AuthLayout>
  );
}
