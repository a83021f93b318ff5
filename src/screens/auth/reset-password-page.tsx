import { Link, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { ResetPasswordBody } from '../../../contract/auth';
import { useShell } from '../../shell-context';
import { AuthLayout, FormError, SubmitButton } from './auth-layout';
import { FormField } from './form-field';
import { useAuthForm } from './use-auth-form';

const LABELS = { password: 'New password', confirm: 'Repeat the new password', token: 'Link' };

/** /auth/reset-password?token=...: the link from the reset e-mail. */
export function ResetPasswordPage() {
  const { client } = useShell();
  const search: Record<string, unknown> = useSearch({ strict: false });
  const token = typeof search.token === 'string' ? search.token : '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const { errors, formError, busy, onSubmit } = useAuthForm({
    labels: LABELS,
    parse: () => ResetPasswordBody.safeParse({ token, password }),
    check: () => (confirm !== password ? { confirm: 'The two passwords do not match' } : null),
    send: async (body) => {
      await client.call('auth.resetPassword', body);
      setDone(true);
    },
  });

  if (!token) {
    return (
      <AuthLayout title="Reset your password">
        <p className="form-error" role="alert">
          This reset link has no valid token. Open the link from the e-mail again, or ask for a new
          one.
        </p>
        <nav className="auth-links" aria-label="Other account actions">
          <Link to="/auth/forgot-password">Send a new reset link</Link>
        </nav>
      </AuthLayout>
    );
  }

  if (done) {
    return (
      <AuthLayout title="Password changed">
        <p className="form-success" role="status">
          Your password has been changed. Sign in with your new password.
        </p>
        <Link to="/auth/signin" className="button primary block">
          Sign in
        </Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Set a new password">
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label="Set a new password">
        <FormField
          id="password"
          label={LABELS.password}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
          disabled={busy}
          required
        />
        <FormField
          id="confirm"
          label={LABELS.confirm}
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={setConfirm}
          error={errors.confirm}
          disabled={busy}
          required
        />
        <SubmitButton busy={busy} label="Set new password" busyLabel="Saving…" />
        <FormError message={errors.token ?? formError} />
      </form>
      <nav className="auth-links" aria-label="Other account actions">
        <Link to="/auth/signin">Back to sign in</Link>
      </nav>
    </AuthLayout>
  );
}
