import { useId, useState, type Dispatch } from 'react';
import {
  keywordProblem,
  type ActiveKeywordType,
  type KeywordType,
  type Keywords,
} from '../../../contract/boards';
import type { DraftAction } from './draft';

const TYPE_LABELS: Record<KeywordType, string> = { include: 'Include', exclude: 'Exclude' };

/**
 * Keywords to include and exclude (002 §4, §5). Each keyword is checked as it is typed with
 * the boolean keyword validator, whose message shows under the field; one the validator
 * refuses is not added. A keyword added to one list leaves the other; a duplicate is kept
 * once; removing the last of a type shows all keywords again.
 */
export function KeywordEditor(props: {
  keywords: Keywords;
  active: ActiveKeywordType;
  dispatch: Dispatch<DraftAction>;
  /** Set when saving was refused because of invalid keywords. */
  error?: string;
}) {
  const { keywords, active, dispatch } = props;
  const id = useId();
  const [text, setText] = useState('');
  const [type, setType] = useState<KeywordType>('include');
  const problem = text.trim() ? keywordProblem(text) : null;

  const add = () => {
    if (!text.trim() || problem) return;
    dispatch({ type: 'addKeyword', keyword: text, keywordType: type });
    setText('');
  };

  const shown = (['include', 'exclude'] as const)
    .filter((t) => active === 'all' || active === t)
    .flatMap((t) => keywords[t].map((k) => ({ ...k, type: t })));
  const counts = { include: keywords.include.length, exclude: keywords.exclude.length };
  const tabs: Array<[ActiveKeywordType, string]> = [
    ['all', `All (${counts.include + counts.exclude})`],
    ['include', `Include (${counts.include})`],
    ['exclude', `Exclude (${counts.exclude})`],
  ];

  return (
    <fieldset className="builder-section">
      <legend>Keywords</legend>
      <p className="muted" id={`${id}-help`}>
        Combine words with AND, OR, NOT, parentheses and quotes, e.g.{' '}
        <code>(&quot;chip&quot; OR semiconductor) AND NOT lawsuit</code>
      </p>
      <div className="fb-keyword-add">
        <label htmlFor={`${id}-keyword`} className="visually-hidden">
          Keyword
        </label>
        <input
          id={`${id}-keyword`}
          className="fb-text-input"
          placeholder="Add a keyword"
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-problem ${id}-help`}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            add();
          }}
        />
        <div className="fb-segmented" role="radiogroup" aria-label="Add keyword as">
          {(['include', 'exclude'] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="radio"
              aria-checked={type === t}
              className={type === t ? 'fb-segment selected' : 'fb-segment'}
              onClick={() => setType(t)}
            >
              {TYPE_LABELS[t]}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="button secondary small"
          disabled={!text.trim() || problem !== null}
          onClick={add}
        >
          Add keyword
        </button>
      </div>
      <p id={`${id}-problem`} className="field-error" aria-live="polite">
        {problem ?? props.error ?? ''}
      </p>
      <div className="fb-keyword-tabs" role="group" aria-label="Show keywords">
        {tabs.map(([key, label]) => (
          <button
            key={key}
            type="button"
            aria-pressed={active === key}
            className={active === key ? 'fb-tab-chip selected' : 'fb-tab-chip'}
            onClick={() => dispatch({ type: 'showKeywords', active: key })}
          >
            {label}
          </button>
        ))}
      </div>
      {shown.length ? (
        <ul className="fb-chip-list" aria-label="Keywords">
          {shown.map((k) => {
            const invalid = keywordProblem(k.keyword);
            return (
              <li
                key={`${k.type}:${k.keyword}`}
                className={`fb-chip ${k.type}${invalid ? ' invalid' : ''}`}
                title={invalid ?? undefined}
              >
                <span className="fb-chip-type">{TYPE_LABELS[k.type]}</span>
                <span className="fb-chip-text">{k.keyword}</span>
                {invalid ? <span className="visually-hidden">{invalid}</span> : null}
                <button
                  type="button"
                  className="fb-chip-remove"
                  aria-label={`Remove keyword ${k.keyword}`}
                  onClick={() =>
                    dispatch({ type: 'removeKeyword', keyword: k.keyword, keywordType: k.type })
                  }
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">
          {active === 'all'
            ? 'No keywords: the feed holds every document of its sources.'
            : `No keywords to ${active}.`}
        </p>
      )}
    </fieldset>
  );
}
