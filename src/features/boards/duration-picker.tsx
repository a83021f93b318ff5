import { useId, useState, type Dispatch } from 'react';
import {
  DURATION_LABELS,
  DurationOption,
  durationRange,
  type DateRange,
} from '../../../contract/boards';
import { DURATION_OPTIONS } from '../../../contract/constants';
import { customRange, describeRange, rangeFromShorthand } from './date-range';
import type { DraftAction } from './draft';

const CUSTOM = 'custom';

/**
 * The feed's date range: any time, one of the duration options ("Last 1 day" ... "Last 3
 * years"), a typed shorthand, or a custom DD-MM-YYYY range (000 §5, §9).
 */
export function DurationPicker(props: {
  value: DateRange | null;
  dispatch: Dispatch<DraftAction>;
  now?: () => number;
}) {
  const { value, dispatch } = props;
  const now = props.now ?? Date.now;
  const id = useId();
  const selected = value?.durationOption ?? (value ? CUSTOM : '');
  const [custom, setCustom] = useState(selected === CUSTOM);
  const [start, setStart] = useState(value?.durationOption ? '' : (value?.startDate ?? ''));
  const [end, setEnd] = useState(value?.durationOption ? '' : (value?.endDate ?? ''));
  const [rangeProblem, setRangeProblem] = useState<string | null>(null);
  const [shorthand, setShorthand] = useState('');
  const [shorthandProblem, setShorthandProblem] = useState<string | null>(null);

  const set = (range: DateRange | null) => dispatch({ type: 'dateRange', value: range });
  const choose = (choice: string) => {
    setCustom(choice === CUSTOM);
    setRangeProblem(null);
    if (choice === CUSTOM) return;
    const option = DurationOption.safeParse(choice);
    set(option.success ? durationRange(option.data, now()) : null);
  };
  const applyCustom = (nextStart: string, nextEnd: string) => {
    setStart(nextStart);
    setEnd(nextEnd);
    if (!nextStart.trim() || !nextEnd.trim()) return setRangeProblem(null);
    const result = customRange(nextStart, nextEnd);
    setRangeProblem(result.problem);
    if (result.range) set(result.range);
  };
  const applyShorthand = (text: string) => {
    setShorthand(text);
    if (!text.trim()) return setShorthandProblem(null);
    const result = rangeFromShorthand(text, now());
    setShorthandProblem(result.problem);
    if (!result.range) return;
    set(result.range);
    const isOption = result.range.durationOption !== null;
    setCustom(!isOption);
    setStart(isOption ? '' : (result.range.startDate ?? ''));
    setEnd(isOption ? '' : (result.range.endDate ?? ''));
  };

  return (
    <fieldset className="builder-section">
      <legend>Date range</legend>
      <div className="fb-duration-row">
        <label htmlFor={`${id}-duration`}>Duration</label>
        <select
          id={`${id}-duration`}
          className="fb-text-input"
          value={custom ? CUSTOM : selected}
          onChange={(event) => choose(event.target.value)}
        >
          <option value="">Any time</option>
          {DURATION_OPTIONS.map((option) => (
            <option key={option} value={option}>
              {DURATION_LABELS[option]}
            </option>
          ))}
          <option value={CUSTOM}>Custom range</option>
        </select>
        <label htmlFor={`${id}-shorthand`}>or type</label>
        <input
          id={`${id}-shorthand`}
          className="fb-text-input shorthand"
          placeholder="e.g. 3M"
          value={shorthand}
          aria-invalid={shorthandProblem ? true : undefined}
          aria-describedby={`${id}-shorthand-problem`}
          onChange={(event) => applyShorthand(event.target.value)}
        />
      </div>
      <p id={`${id}-shorthand-problem`} className="field-error" aria-live="polite">
        {shorthandProblem ?? ''}
      </p>
      {custom ? (
        <div className="fb-duration-row">
          <label htmlFor={`${id}-start`}>Start date</label>
          <input
            id={`${id}-start`}
            className="fb-text-input date"
            placeholder="DD-MM-YYYY"
            value={start}
            aria-invalid={rangeProblem ? true : undefined}
            aria-describedby={`${id}-range-problem`}
            onChange={(event) => applyCustom(event.target.value, end)}
          />
          <label htmlFor={`${id}-end`}>End date</label>
          <input
            id={`${id}-end`}
            className="fb-text-input date"
            placeholder="DD-MM-YYYY"
            value={end}
            aria-invalid={rangeProblem ? true : undefined}
            aria-describedby={`${id}-range-problem`}
            onChange={(event) => applyCustom(start, event.target.value)}
          />
        </div>
      ) : null}
      <p id={`${id}-range-problem`} className="field-error" aria-live="polite">
        {rangeProblem ?? ''}
      </p>
      <p className="muted" role="status">
        Showing: {describeRange(value)}
      </p>
    </fieldset>
  );
}
