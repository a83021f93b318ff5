import { useSignals } from '@preact/signals-react/runtime';
import { useNavigate } from '@tanstack/react-router';
import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { assistantLabel } from '../lib/product';
import { overlayWidths, type OverlayParse } from '../lib/overlay';
import { routesFor } from '../lib/routes';
import { PageLoading } from '../shell/lazy-page';
import { useShell } from '../shell-context';

/** The custom feed builder (002 §2), its own chunk. */
const CustomFeedOverlay = lazy(() =>
  import('../features/boards/custom-feed-builder').then((m) => ({ default: m.CustomFeedOverlay })),
);
/** The document preview (000 §2), its own chunk (it carries the HTML sanitiser). */
const PreviewOverlay = lazy(() =>
  import('../features/documents/preview-panel').then((m) => ({ default: m.PreviewPanel })),
);

/** The assistant's chat (001 §2), its own chunk (it carries the markdown renderer). */
const AssistantOverlay = lazy(() =>
  import('../features/assistant/assistant-overlay').then((m) => ({ default: m.AssistantOverlay })),
);

/** The assistant overlay's type is `ask-{product}`: its contents are filed under this key. */
const ASSISTANT_PANEL = 'ask-{product}';

/** The contents of each overlay type that has them, given its parameters without the prefix. */
const PANEL_CONTENTS: Partial<Record<string, ComponentType<{ params: Record<string, string> }>>> = {
  'custom-feed': CustomFeedOverlay,
  preview: PreviewOverlay,
  [ASSISTANT_PANEL]: AssistantOverlay,
};

type ShownOverlay = Exclude<OverlayParse, { status: 'none' }>;

/** Panel titles (000 §2: the portfolio overlay is "Create Portfolio"). */
export function overlayTitle(type: string, product: string): string {
  if (type === `ask-${product}`) return assistantLabel(product);
  switch (type) {
    case 'preview':
      return 'Preview';
    case 'custom-feed':
      return 'Custom Feed';
    case 'portfolio':
      return 'Create Portfolio';
    case 'report':
      return 'Report';
    default:
      return 'Panel';
  }
}

function CloseButton(props: { onClose: () => void }) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label="Close panel"
      title="Close"
      onClick={props.onClose}
    >
      ×
    </button>
  );
}

/** A panel header: the title (focused on open), any extra actions, and close. */
function PanelHeader(props: { title: string; onClose: () => void; children?: ReactNode }) {
  return (
    <header className="overlay-header">
      <h2 tabIndex={-1} data-overlay-heading>
        {props.title}
      </h2>
      <div className="overlay-actions">
        {props.children}
        <CloseButton onClose={props.onClose} />
      </div>
    </header>
  );
}

/** The assistant overlay's header: minimise/maximise, history (flagged) and close (000 §2). */
function AssistantHeader(props: {
  title: string;
  type: string;
  widthPercent: number;
  onClose: () => void;
  onResize: (percent: number) => void;
}) {
  useSignals();
  const { state, product } = useShell();
  const navigate = useNavigate();
  const { min, max } = overlayWidths(props.type);
  const maximised = props.widthPercent >= max;
  const hasHistory = state.$flags.value[`ask_${product}_history`] === true;
  return (
    <PanelHeader title={props.title} onClose={props.onClose}>
      <button
        type="button"
        className="icon-button"
        aria-label={maximised ? 'Minimise panel' : 'Maximise panel'}
        aria-pressed={maximised}
        title={maximised ? 'Minimise' : 'Maximise'}
        onClick={() => props.onResize(maximised ? min : max)}
      >
        {maximised ? '⤡' : '⤢'}
      </button>
      {hasHistory ? (
        <button
          type="button"
          className="icon-button"
          aria-label="Conversation history"
          title="History"
          onClick={() => void navigate({ to: routesFor(product).assistant.history })}
        >
          ⟲
        </button>
      ) : null}
    </PanelHeader>
  );
}

/** What a panel shows: the spec's error text, or the type's (not yet built) contents. */
export function OverlayBody(props: {
  overlay: ShownOverlay;
  title: string;
  widthPercent: number;
  onClose: () => void;
  onResize: (percent: number) => void;
}) {
  const { product } = useShell();
  const { overlay } = props;

  if (overlay.status === 'error') {
    return (
      <>
        <PanelHeader title={props.title} onClose={props.onClose} />
        <div className="overlay-content">
          <p className="overlay-error" role="alert">
            {overlay.error}
          </p>
          <p className="muted">{overlay.detail}</p>
        </div>
      </>
    );
  }

  const isAssistant = overlay.type === `ask-${product}`;
  const Contents = PANEL_CONTENTS[isAssistant ? ASSISTANT_PANEL : overlay.type];
  return (
    <>
      {isAssistant ? (
        <AssistantHeader
          title={props.title}
          type={overlay.type}
          widthPercent={props.widthPercent}
          onClose={props.onClose}
          onResize={props.onResize}
        />
      ) : (
        <PanelHeader title={props.title} onClose={props.onClose} />
      )}
      <div className="overlay-content">
        {Contents ? (
          <Suspense fallback={<PageLoading />}>
            <Contents params={overlay.params} />
          </Suspense>
        ) : (
          <div className="not-available" role="status">
            <h3>Not available yet</h3>
            <p>{props.title} arrives in a later release of the workspace.</p>
          </div>
        )}
      </div>
    </>
  );
}
