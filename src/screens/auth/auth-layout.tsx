import type { ReactNode } from 'react';
import { productLabel } from '../../lib/product';
import { useDocumentTitle } from '../../layout/page-heading';
import { useShell } from '../../shell-context';

/** The frame of the public auth screens: brand, title and one card. */
export function AuthLayout(props: { title: string; subtitle?: string; children: ReactNode }) {
  const { product } = useShell();
  useDocumentTitle(props.title, product);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="auth-brand">{productLabel(product)}</p>
        <h1>{props.title}</h1>
        {props.subtitle ? <p className="auth-subtitle">{props.subtitle}</p> : null}
        {props.children}
      </div>
    </main>
  );
}

/** The server's (or the network's) message under the form. */
export function FormError(props: { message: string | null }) {
  if (!props.message) return null;
  return (
    <p className="form-error" role="alert">
      {props.message}
    </p>
  );
}

export function SubmitButton(props: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button
      type="submit"
      className="button primary block"
      disabled={props.busy}
      aria-busy={props.busy || undefined}
    >
      {props.busy ? props.busyLabel : props.label}
    </button>
  );
}
