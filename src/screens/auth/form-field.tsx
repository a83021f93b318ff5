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

/** One problem with one field: its path (a key, or "a.b") and its message. */
export type FieldIssue = { path: string | readonly PropertyKey[]; message: string };

/**
 * A message that names its field by the form's label: "email must be a valid e-mail address"
 * reads "E-mail must be a valid e-mail address"; a message that does not name the field gets
 * the label in front ("Password: too weak").
 */
export function labelled(field: string, label: string, message: string): string {
  const text = message.trim();
  const lower = text.toLowerCase();
  const key = field.toLowerCase();
  if (lower.startsWith(`${key}:`)) return `${label}: ${text.slice(key.length + 1).trimStart()}`;
  if (lower.startsWith(`${key} `)) return `${label} ${text.slice(key.length + 1)}`;
  if (text.toLowerCase().startsWith(label.toLowerCase())) return text;
  return `${label}: ${text}`;
}

/**
 * Field messages, keyed by the top-level field, from a contract schema's issues or a server's
 * 400 issues (the same contract, checked again on the server). Each message names its field
 * by the label the user sees. Issues for fields the form does not show are left out: the caller
 * shows its own message for those.
 */
export function fieldErrors(
  issues: readonly FieldIssue[],
  labels: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const path = typeof issue.path === 'string' ? issue.path.split('.') : issue.path;
    const field = String(path[0] ?? '');
    if (out[field] || !Object.hasOwn(labels, field)) continue;
    out[field] = labelled(field, labels[field], issue.message);
  }
  return out;
}
