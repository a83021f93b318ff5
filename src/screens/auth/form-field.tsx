import type { z } from 'zod';

/** One labelled input with its validation message tied to it for screen readers. */
export function FormField(props: {
  id: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoComplete?: string;
  required?: boolean;
  disabled?: boolean;
}) {
  const errorId = `${props.id}-error`;
  return (
    <div className="form-field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.id}
        type={props.type ?? 'text'}
        value={props.value}
        autoComplete={props.autoComplete}
        required={props.required}
        disabled={props.disabled}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.error ? (
        <p id={errorId} className="field-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Field messages from a contract schema's issues, keyed by the top-level field. A message that
 * does not already name its field gets the field's label in front, so it always says what is wrong.
 */
export function fieldErrors(
  error: z.ZodError,
  labels: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (out[field]) continue;
    const label = labels[field] ?? field;
    const namesField =
      issue.message.toLowerCase().startsWith(field.toLowerCase()) ||
      issue.message.toLowerCase().startsWith(label.toLowerCase());
    out[field] = namesField ? issue.message : `${label}: ${issue.message}`;
  }
  return out;
}

/** The message the worker passed on (comlink keeps an Error's message). */
export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'The request failed. Check your connection and try again.';
}
