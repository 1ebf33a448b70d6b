/**
 * "Export CSV" (DESIGN §11.6): asks for a single-use download link for the list's export with the filters
 * on screen, then opens it. The button shows it is working until the download has started; a refusal (a
 * bad filter, the rate limit) is a toast with the server's message.
 */
import { Button } from '@mantine/core';
import type { CsvExportPath } from '@starlight/shared';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../errors.ts';
import { toastError, toastInfo } from '../notify.ts';
import { getExportLink, startDownload } from './export-link.ts';

/** How long the button keeps its loading state after the link opens: the browser's download starting. */
const STARTING_MS = 1500;

/** `path`: the export; `filters`: the list's applied filters (the list request's fields, paging left out). */
export function ExportCsvButton({ path, filters }: { path: CsvExportPath; filters: Record<string, unknown> }) {
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const { url } = await getExportLink(path, filters);
      startDownload(url);
      toastInfo('Your CSV download has started');
      await new Promise((resolve) => setTimeout(resolve, STARTING_MS));
    } catch (err) {
      toastError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      loading={busy}
      loaderProps={{ type: 'dots' }}
      onClick={() => void onClick()}
      data-testid="export-csv"
    >
      Export CSV
    </Button>
  );
}
