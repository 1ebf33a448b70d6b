/** Toasts a query's failure once per failure (SPEC §8: errors arrive as an error toast). */
import { useEffect } from 'react';
import { errorMessage } from './errors.ts';
import { toastError } from './notify.ts';

export function useErrorToast(error: unknown, errorUpdatedAt: number, onError?: () => void) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: fire once per failure, keyed by its time
  useEffect(() => {
    if (!error) return;
    toastError(errorMessage(error));
    onError?.();
  }, [errorUpdatedAt]);
}
