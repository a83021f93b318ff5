import { useSignals } from '@preact/signals-react/runtime';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { overlaySearch, overlayVisible } from '../lib/overlay';
import { assistantLabel } from '../lib/product';
import { routesFor } from '../lib/routes';
import { useShell } from '../shell-context';
import { assistantButtonMode } from './assistant-button-rules';

/**
 * The floating assistant button: opens the assistant overlay beside the page (000 §2), or the
 * assistant page where overlays are not shown.
 */
export function AssistantButton(props: { viewportWidth: number }) {
  useSignals();
  const { state, product } = useShell();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const mode = assistantButtonMode(pathname, {
    product,
    flags: state.$flags.value,
    viewportWidth: props.viewportWidth,
  });
  if (mode === 'hidden') return null;
  const label = `Open ${assistantLabel(product)}`;
  return (
    <button
      type="button"
      className="assistant-fab"
      aria-label={mode === 'disabled' ? `${label} (not available on this page)` : label}
      title={mode === 'disabled' ? 'The assistant is not available on this page' : label}
      disabled={mode === 'disabled'}
      onClick={() =>
        // Where the overlay cannot show (a tablet), the assistant's own page.
        overlayVisible(props.viewportWidth)
          ? void navigate({
              to: '.',
              search: (prev: Record<string, unknown>) => ({
                ...prev,
                ...overlaySearch(`ask-${product}`),
              }),
            })
          : void navigate({ to: routesFor(product).assistant.base })
      }
    >
      ✦
    </button>
  );
}
