import { Component, type ReactNode } from 'react';
import { ErrorScreen } from '../screens/error-screen';

/** Catches what escapes the router (the shell itself): the generic error screen. */
export class ShellErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    if (this.state.error !== null) return <ErrorScreen error={this.state.error} />;
    return this.props.children;
  }
}
