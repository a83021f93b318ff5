import { Link, useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import { SignInBody } from '../../../contract/auth';
import { useShell } from '../../shell-context';
import { AuthLayout, FormError, SubmitButton } from './auth-layout';
import { FormField } from './form-field';
import { useAuthForm } from './use-auth-form';
import { useCompleteSignIn } from './use-complete-sign-in';

const LABELS = { email: 'E-mail', password: 'Password' };

/** /auth/signin and /pulse/auth/signin. */
export function SignInPage() {
  const { client } = useShell();
  const completeSignIn = useCompleteSignIn();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const isPulse = pathname.startsWith('/pulse/');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, formError, busy, onSubmit } = useAuthForm({
    labels: LABELS,
    parse: () => SignInBody.safeParse({ email, password }),
    send: (body) => completeSignIn(() => client.call('auth.signIn', body)),
  });

  return (
    <AuthLayout title={isPulse ? 'Sign in to Pulse' : 'Sign in'}>
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label="Sign in">
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
        <FormField
          id="password"
          label={LABELS.password}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
          disabled={busy}
          required
        />
        <SubmitButton busy={busy} label="Sign in" busyLabel="Signing in…" />
        <FormError message={formError} />
      </form>
      <nav className="auth-links" aria-label="Other account actions">
        <Link to="/auth/forgot-password">Forgot password?</Link>
        <Link to="/auth/platform-access">Create an account</Link>
      </nav>
    </AuthLayout>
  );
}
