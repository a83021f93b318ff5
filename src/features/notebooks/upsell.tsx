import type { PricingMessage } from '../../../contract/uploads';

/** The pricing gate's upsell (000 §6): its header, body and subtext, until dismissed. */
export function Upsell(props: { message: PricingMessage; onDismiss: () => void }) {
  const { message } = props;
  return (
    <div className="notebook-upsell" role="alert">
      <strong>{message.header}</strong>
      <p>{message.body}</p>
      <p className="muted">{message.subtext}</p>
      <button type="button" className="button secondary small" onClick={props.onDismiss}>
        Close
      </button>
    </div>
  );
}
