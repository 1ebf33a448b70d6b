import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api.ts';

/** Server data cache. Auth and validation failures are not retried. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});
