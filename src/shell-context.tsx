import { createContext, useContext, type ReactNode } from 'react';
import type { ShellState } from './state/shell-state';
import type { WorkspaceClient } from './workspace-client';

/** What every screen may reach: the worker (through the client), shell state and the product. */
export type ShellServices = {
  client: WorkspaceClient;
  state: ShellState;
  product: string;
};

const ShellContext = createContext<ShellServices | null>(null);

/** Injects the workspace: the browser passes the real client, UI tests a fake one. */
export function WorkspaceProvider(props: { services: ShellServices; children: ReactNode }) {
  return <ShellContext.Provider value={props.services}>{props.children}</ShellContext.Provider>;
}

export function useShell(): ShellServices {
  const services = useContext(ShellContext);
  if (!services) throw new Error('useShell: no WorkspaceProvider above this component');
  return services;
}

/** The shell's services when a provider is above (a component that also renders alone in tests). */
export function useShellIfAny(): ShellServices | null {
  return useContext(ShellContext);
}
