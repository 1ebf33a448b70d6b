/** POST /api/exports/link (DESIGN §11.6): a single-use download link, valid 60 s, for one CSV export. */
import type { CsvExportPath, ExportLinkResponse } from '@starlight/shared';
import { api } from '../api.ts';

/** A list's filters as an export's query parameters: empty values dropped, everything as text. */
export function exportQuery(filters: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === '') continue;
    query[name] = String(value);
  }
  return query;
}

/** Asks for a download link to `path` with `filters`; throws ApiError (a bad filter: 400 with its message). */
export function getExportLink(path: CsvExportPath, filters: Record<string, unknown>): Promise<ExportLinkResponse> {
  return api<ExportLinkResponse>('POST', '/exports/link', { path, query: exportQuery(filters) });
}

/**
 * Opens a download link: the browser saves the attachment and stays on the page. The session's token is
 * never in the URL; the link works once.
 */
export function startDownload(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.download = '';
  document.body.append(a);
  a.click();
  a.remove();
}
