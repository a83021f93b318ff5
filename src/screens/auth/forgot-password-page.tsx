import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ForgotPasswordBody } from '../../../contract/auth';
import { useShell } from '../../shell-context';
import { AuthLayout, FormError, SubmitButton } from './auth-layout';
import { FormField } from './form-field';
import { useAuthForm } from './use-auth-form';

const LABELS = { email: 'E-mail' };

/** /auth/forgot-password: mails a reset link. */
export function ForgotPasswordPage() {
  const { client } = useShell();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { errors, formError, busy, onSubmit } = useAuthForm({
    labels: LABELS,
    parse: () => ForgotPasswordBody.safeParse({ email }),
    send: async (body) => {
      await client.call('auth.forgotPassword', body);
      setSentTo(body.email);
    },
  });

  if (sentTo) {
    return (
      <AuthLayout title="Check your e-mail">
        <p className="form-success" role="status">
          If an account exists for {sentTo}, we have sent it a link to reset the password. The link
          works once and expires soon.
        </p>
        <nav className="auth-links" aria-label="Other account actions">
          <Link to="/auth/signin">Back to sign in</Link>
        </nav>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter your e-mail and we will send you a link to set a new one."
    >
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label="Reset password">
        <FormField
          id="email"
          label={LABELS.email}
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={errors.email}
          disabled={busy}
          required
        />
        <SubmitButton busy={busy} label="Send reset link" busyLabel="Sending…" />
        <FormError message={formError} />
      </form>
      <nav className="auth-links" aria-label="Other account actions">
        <Link to="/auth/signin">Back to sign in</Link>
      </nav>
    </AuthLayout>
  );
}
