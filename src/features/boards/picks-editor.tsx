import { useState } from 'react';
import type { AiPicks, FeedChoices } from '../../../contract/boards';

export const NO_PICKS: AiPicks = { companies: [], topics: [], attributes: [] };
export const pickCount = (p: AiPicks) => p.companies.length + p.topics.length + p.attributes.length;

const GROUPS = [
  { key: 'companies', label: 'Companies' },
  { key: 'topics', label: 'Topics' },
  { key: 'attributes', label: 'Attributes' },
] as const;

/** Above this many choices a group gets a filter field. */
const FILTER_FROM = 12;

function PickGroup(props: {
  label: string;
  choices: string[];
  picked: string[];
  onChange: (picked: string[]) => void;
}) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  // Picks stay listed even when the corpus no longer offers them (an older AI feed's picks).
  const all = [...new Set([...props.picked, ...props.choices])];
  const shown = all.filter((c) => !needle || c.toLowerCase().includes(needle));
  const toggle = (choice: string) =>
    props.onChange(
      props.picked.includes(choice)
        ? props.picked.filter((p) => p !== choice)
        : [...props.picked, choice],
    );
  return (
    <fieldset className="builder-section">
      <legend>
        {props.label}
        {props.picked.length ? ` (${props.picked.length})` : ''}
      </legend>
      {all.length > FILTER_FROM ? (
        <input
          className="fb-text-input"
          aria-label={`Find ${props.label.toLowerCase()}`}
          placeholder={`Find ${props.label.toLowerCase()}`}
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      ) : null}
      {all.length === 0 ? <p className="muted">Nothing to fb-pick yet.</p> : null}
      <ul className="fb-pick-list" aria-label={props.label}>
        {shown.map((choice) => (
          <li key={choice}>
            <button
              type="button"
              className={props.picked.includes(choice) ? 'fb-pick selected' : 'fb-pick'}
              aria-pressed={props.picked.includes(choice)}
              onClick={() => toggle(choice)}
            >
              {choice}
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** Companies, topics and attributes to build an AI feed from (002 §3 "AI extras"). */
export function PicksEditor(props: {
  choices: FeedChoices;
  picks: AiPicks;
  onChange: (picks: AiPicks) => void;
}) {
  return (
    <div className="fb-picks-editor">
      {GROUPS.map((group) => (
        <PickGroup
          key={group.key}
          label={group.label}
          choices={props.choices[group.key]}
          picked={props.picks[group.key]}
          onChange={(picked) => props.onChange({ ...props.picks, [group.key]: picked })}
        />
      ))}
    </div>
  );
}
