import { Component, type ReactNode } from 'react';

/** Test helper: catches a render error and reports it. */
export class ErrorBoundaryProbe extends Component<
  { onError: (error: unknown) => void; children: ReactNode },
  { failed: boolean }
> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    this.props.onError(error);
  }

  render() {
    return this.state.failed ? <p>error caught</p> : this.props.children;
  }
}
