/**
 * A date filter ('YYYY-MM-DD' or null) for the admin panels: en-GB display, clearable, and a calendar
 * that screen readers can name and that meets contrast (no dimmed outside days, no red weekends).
 */
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useId } from 'react';
import classes from './admin.module.css';

const ARIA_LABELS = {
  nextMonth: 'Next month',
  previousMonth: 'Previous month',
  nextYear: 'Next year',
  previousYear: 'Previous year',
  nextDecade: 'Next decade',
  previousDecade: 'Previous decade',
};

export function DateFilterInput({
  label,
  value,
  onChange,
  error,
  testId,
  ...rest
}: {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: React.ReactNode;
  testId?: string;
  onBlur?: () => void;
  onFocus?: () => void;
}) {
  // The calendar dialog is labelled by its input (Popover's aria-labelledby), so both share one id.
  const id = `date-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <DatePickerInput
      id={id}
      label={label}
      aria-label={label}
      valueFormat="DD/MM/YYYY"
      leftSection={<IconCalendar size={16} aria-hidden />}
      clearable
      clearButtonProps={{ 'aria-label': `Clear ${label.toLowerCase()}` }}
      value={value}
      onChange={onChange}
      error={error}
      hideOutsideDates
      weekendDays={[]}
      ariaLabels={ARIA_LABELS}
      popoverProps={{ id, classNames: { dropdown: classes.contrast } }}
      data-testid={testId}
      {...rest}
    />
  );
}

/**
 * The Start date and End date filters of a paged admin list, bound to its draft filters (`usePagedFilters`
 * in lib/use-paged-filters.ts: `draft` and `set`); an empty date is ''.
 */
export function DraftDateRange({
  draft,
  set,
}: {
  draft: { startDate: string; endDate: string };
  set: (key: 'startDate' | 'endDate', value: string) => void;
}) {
  return (
    <>
      <DateFilterInput label="Start date" value={draft.startDate || null} onChange={(v) => set('startDate', v ?? '')} />
      <DateFilterInput label="End date" value={draft.endDate || null} onChange={(v) => set('endDate', v ?? '')} />
    </>
  );
}
