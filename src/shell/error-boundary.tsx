import { Component, type ReactNode } from 'react';
import { ErrorScreen } from '../screens/error-screen';

type Props = { children: ReactNode; onBack?: () => void };

/**
 * Catches what escapes the router (the shell itself): the generic error screen. Its "Go back"
 * goes back in history; once the address has changed (popstate) the boundary resets, so the
 * page the user went back to renders instead of the old error.
 */
export class ShellErrorBoundary extends Component<Props, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  private readonly onPopState = () => {
    if (this.state.error !== null) this.setState({ error: null });
  };

  componentDidMount() {
    window.addEventListener('popstate', this.onPopState);
  }

  componentWillUnmount() {
    window.removeEventListener('popstate', this.onPopState);
  }

  render() {
    if (this.state.error !== null) {
      return <ErrorScreen error={this.state.error} onBack={this.props.onBack} />;
    }
    return this.props.children;
  }
}
