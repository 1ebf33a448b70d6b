/**
 * The submission of an admin dialog (SPEC §8): on success the server's message as a toast, the bank data
 * refreshed and `onDone`; on failure the server's per-field messages inline, its message in the dialog
 * and as a toast. `failure` is that message until the next try or `clearFailure`. A success closes the
 * dialog's earlier error toast (`useSubmissionToasts`), so a retry that went through leaves none behind.
 * `words` turns the server's SPEC §5 field messages into the dialog's labels (`wordsOf`, lib/field-words.ts).
 */
import { useState } from 'react';
import { errorMessage, fieldErrors } from './errors.ts';
import { toastSuccess } from './notify.ts';
import { useRefreshBankData } from './use-refresh-bank-data.ts';
import { useSubmissionToasts } from './use-submission-toast.ts';

export function useAdminSubmit(
  form: { setErrors(errors: Record<string, string>): void },
  onDone: () => void,
  words: (message: string) => string = (message) => message,
) {
  const refresh = useRefreshBankData();
  const [failure, setFailure] = useState<string | null>(null);
  const toasts = useSubmissionToasts();
  /** Sends `request` (a mutation call answering `{message}`) and handles both outcomes. */
  const run = async (request: () => Promise<{ message: string }>) => {
    setFailure(null);
    try {
      const res = await request();
      toasts.succeeded();
      toastSuccess(res.message);
      await refresh();
      onDone();
    } catch (err) {
      const message = words(errorMessage(err));
      form.setErrors(Object.fromEntries(Object.entries(fieldErrors(err)).map(([f, m]) => [f, words(m)])));
      setFailure(message);
      toasts.failed(message);
    }
  };
  return { failure, clearFailure: () => setFailure(null), run };
}
