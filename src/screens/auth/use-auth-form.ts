import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { isApiErrorLike, userMessage } from '../../lib/user-message';
import { fieldErrors } from './form-field';

type FieldMessages = Record<string, string>;

/**
 * The submit cycle the auth forms share: check the body against its contract schema (field
 * messages under the fields), then send it (the worker's message under the form) while the form
 * is busy. The server checks the body again: field issues in its answer go under their fields too.
 * Other failures read as the server's words for the user, or the generic failure text (000 §8),
 * never a raw HTTP or network message. A successful send leaves the form for the next screen
 * or a confirmation view, so the form stays busy after it: no second submit while that happens.
 */
export function useAuthForm<T>(options: {
  /** Field labels: messages name fields by them, never by their keys. */
  labels: FieldMessages;
  parse: () => z.ZodSafeParseResult<T>;
  /** A page's own check once the schema passes: field messages, or null when all is well. */
  check?: (body: T) => FieldMessages | null;
  send: (body: T) => Promise<void>;
}) {
  const [errors, setErrors] = useState<FieldMessages>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const parsed = options.parse();
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues, options.labels));
      return;
    }
    const problems = options.check?.(parsed.data);
    if (problems) {
      setErrors(problems);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await options.send(parsed.data);
    } catch (error) {
      const issues = isApiErrorLike(error) ? (error.issues ?? []) : [];
      const byField = fieldErrors(issues, options.labels);
      setErrors(byField);
      setFormError(Object.keys(byField).length > 0 ? null : userMessage(error));
      setBusy(false);
    }
  };

  return { errors, formError, busy, onSubmit };
}
