/**
 * The submission of an admin dialog (SPEC §8): on success the server's message as a toast, the bank data
 * refreshed and `onDone`; on failure the server's per-field messages inline, its message in the dialog
 * and as a toast. `failure` is that message until the next try or `clearFailure`.
 */
import { useState } from 'react';
import { errorMessage, fieldErrors } from './errors.ts';
import { toastError, toastSuccess } from './notify.ts';
import { useRefreshBankData } from './use-refresh-bank-data.ts';

export function useAdminSubmit(form: { setErrors(errors: Record<string, string>): void }, onDone: () => void) {
  const refresh = useRefreshBankData();
  const [failure, setFailure] = useState<string | null>(null);
  /** Sends `request` (a mutation call answering `{message}`) and handles both outcomes. */
  const run = async (request: () => Promise<{ message: string }>) => {
    setFailure(null);
    try {
      const res = await request();
      toastSuccess(res.message);
      await refresh();
      onDone();
    } catch (err) {
      form.setErrors(fieldErrors(err));
      setFailure(errorMessage(err));
      toastError(errorMessage(err));
    }
  };
  return { failure, clearFailure: () => setFailure(null), run };
}
