import { ShellLink } from '../../layout/shell-link';
import { useLeadsSomewhere } from '../../layout/built-routes';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import './settings.css';

/** One settings page the hub may link to, with what it is for. */
type SettingsEntry = { label: string; to: string; about: string };

/** Every settings page of 000 §2, in the order the hub shows them. */
export function settingsEntries(product: string): SettingsEntry[] {
  const r = routesFor(product);
  return [
    {
      label: 'User Settings',
      to: r.settings.userSettings,
      about: 'Your name, password and sign-ins.',
    },
    {
      label: 'Feed Manager',
      to: r.settings.feedsRoot,
      about: 'Your feeds: rename, switch off, delete.',
    },
    {
      label: 'Ingestion Status',
      to: r.settings.feeds,
      about: 'How each source you follow is read.',
    },
    { label: 'Tags Manager', to: r.settings.tags, about: 'Rename, merge and delete your tags.' },
    {
      label: 'Contacts',
      to: r.settings.contacts,
      about: 'The people you hear from, and their priority.',
    },
    { label: 'Groups', to: r.settings.channels, about: 'The groups you share feeds and notes in.' },
    { label: 'Storage', to: r.settings.storage, about: 'Connected storage and what it holds.' },
    { label: 'Portfolios', to: r.settings.portfolios, about: 'The companies you track.' },
  ];
}

/**
 * /settings: the hub (000 §2), linking every settings page that works in this build. A page
 * whose route is still a placeholder is left out (decided from the route table, so it appears by
 * itself once built).
 */
export function SettingsPage() {
  const { product } = useShell();
  const leadsSomewhere = useLeadsSomewhere();
  const entries = settingsEntries(product).filter((entry) => leadsSomewhere(entry.to));
  return (
    <section className="settings-page">
      <ul className="settings-hub" aria-label="Settings pages">
        {entries.map((entry) => (
          <li key={entry.to}>
            <ShellLink to={entry.to}>{entry.label}</ShellLink>
            <p className="muted">{entry.about}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
