/** The Forge Process Logs' CSV export (DESIGN §11.6, admin): every process matching the list's filters. */
import { PROCESS_STATE_LABELS, type ProcessesCsvQuery, type ProcessState } from '@starlight/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CsvColumn, KeysetPages } from '../../lib/csv-export.ts';
import { type ExportedProcess, findProcessesAfter } from './processes-export.queries.ts';

/** Processes read from the database per page of the export. */
const EXPORT_PAGE_ROWS = 500;

/** The columns of the process export: the list's fields, amounts per unit (DESIGN §6), dates ISO UTC. */
export const PROCESS_COLUMNS: readonly CsvColumn<ExportedProcess>[] = [
  { header: 'Started (UTC)', cell: (p) => p.createdAt },
  { header: 'Id', cell: (p) => p.id },
  { header: 'User', cell: (p) => p.user.nickname },
  { header: 'Recipe', cell: (p) => p.recipe.name },
  { header: 'Recipe id', cell: (p) => p.recipe._id },
  { header: 'Input currency', cell: (p) => p.inputTicker },
  { header: 'Input amount per unit', cell: (p) => p.input.amount },
  { header: 'Output currency', cell: (p) => p.outputTicker },
  { header: 'Output amount per unit', cell: (p) => p.output.amount },
  { header: 'Quantity', cell: (p) => p.quantity },
  { header: 'State', cell: (p) => PROCESS_STATE_LABELS[p.state as ProcessState] ?? String(p.state) },
  { header: 'Finish (UTC)', cell: (p) => p.finishDate },
  { header: 'Ended (UTC)', cell: (p) => p.endedAt },
];

/** The keyset pages of the processes matching `q` (the Forge Process Logs filters), newest first. */
export function processPages(db: DbOrTx, q: ProcessesCsvQuery): KeysetPages<ExportedProcess> {
  const { token: _token, ...filters } = q;
  return (after) => findProcessesAfter(db, filters, after, EXPORT_PAGE_ROWS);
}
