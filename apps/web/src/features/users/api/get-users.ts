/** POST /api/user/getUsers (admin): accounts matching the filters, a page at a time, with `total`. */
import type { GetUsersRequest, GetUsersResponse } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches one page of accounts. */
export function getUsers(body: GetUsersRequest, signal?: AbortSignal): Promise<GetUsersResponse> {
  return api<GetUsersResponse>('POST', '/user/getUsers', body, signal ? { signal } : {});
}

export const usersQuery = (body: GetUsersRequest) =>
  queryOptions({
    queryKey: [...queryKeys.adminUsers, body],
    queryFn: ({ signal }) => getUsers(body, signal),
    placeholderData: keepPreviousData,
  });

export function useUsers(body: GetUsersRequest) {
  return useQuery(usersQuery(body));
}
