import { useId, useState } from 'react';
import { DURATION_OPTIONS } from '../../../contract/constants';
import { DayDate, DURATION_LABELS, dayToUnix } from '../../../contract/date-range';
import type { SearchParams } from '../../../contract/search';

/** The address's date parameters (000 §9: durationOption, or startDate and endDate). */
export type DatePatch = {
  durationOption?: string;
  startDate?: string;
  endDate?: string;
};

const CUSTOM = 'custom';
const ANY = '';

/**
 * The date range (002 §5, §9): any time, a duration option ("Last 1 week"...), or a custom
 * range of DD-MM-YYYY days, both inclusive, checked before it applies.
 */
export function DateRangeMenu(props: {
  value: SearchParams['date_range'];
  onChange: (patch: DatePatch) => void;
}) {
  const { value } = props;
  const selectId = useId();
  const range = value?.startDate && value.endDate ? value : null;
  const [editing, setEditing] = useState(false);
  const option = editing ? CUSTOM : (value?.durationOption ?? (range ? CUSTOM : ANY));
  const [start, setStart] = useState(range?.startDate ?? '');
  const [end, setEnd] = useState(range?.endDate ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  const choose = (next: string) => {
    setProblem(null);
    if (next === CUSTOM) {
      setEditing(true);
      return;
    }
    setEditing(false);
    props.onChange({ durationOption: next || undefined, startDate: undefined, endDate: undefined });
  };

  const apply = () => {
    const from = DayDate.safeParse(start.trim());
    const to = DayDate.safeParse(end.trim());
    if (!from.success || !to.success) {
      setProblem('Enter both dates as DD-MM-YYYY.');
      return;
    }
    if (dayToUnix(from.data) > dayToUnix(to.data)) {
      setProblem('The start date must be on or before the end date.');
      return;
    }
    setProblem(null);
    setEditing(false);
    props.onChange({ durationOption: undefined, startDate: from.data, endDate: to.data });
  };

  return (
    <div className="date-range-menu">
      <label className="sort-menu" htmlFor={selectId}>
        <span>Date</span>
        <select id={selectId} value={option} onChange={(e) => choose(e.currentTarget.value)}>
          <option value={ANY}>Any time</option>
          {DURATION_OPTIONS.map((o) => (
            <option key={o} value={o}>
              {DURATION_LABELS[o]}
            </option>
          ))}
          <option value={CUSTOM}>Custom range</option>
        </select>
      </label>
      {option === CUSTOM ? (
        <form
          className="date-range-custom"
          aria-label="Custom date range"
          onSubmit={(event) => {
            event.preventDefault();
            apply();
          }}
        >
          <label>
            <span>From</span>
            <input
              value={start}
              placeholder="DD-MM-YYYY"
              inputMode="numeric"
              maxLength={10}
              aria-invalid={problem !== null || undefined}
              onChange={(e) => setStart(e.currentTarget.value)}
            />
          </label>
          <label>
            <span>To</span>
            <input
              value={end}
              placeholder="DD-MM-YYYY"
              inputMode="numeric"
              maxLength={10}
              aria-invalid={problem !== null || undefined}
              onChange={(e) => setEnd(e.currentTarget.value)}
            />
          </label>
          <button type="submit" className="button secondary small">
            Apply
          </button>
          {problem ? (
            <p className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
