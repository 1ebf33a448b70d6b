/**
 * The state of a transaction log kept in the URL (DESIGN §1): the page's search is the truth, the filter
 * form only holds what is being typed. Search (or Enter) writes the URL, page 1 (SPEC §4); the inputs
 * follow the URL when it changes under them (Back/Forward, a link). Used by the member's User Logs and
 * the admin's Tnx Logs; the page owning the route passes `search` and `onSearch`.
 */
import { useForm } from '@mantine/form';
import { pageAfterError, transactionsRequest } from '@starlight/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { schemaValidate } from '../form.ts';
import { queryKeys } from '../query-keys.ts';
import { getTransactions, useTransactions } from './get-transactions.ts';
import {
  filtersFromSearch,
  limitOf,
  pageOf,
  requestFromFilters,
  requestFromSearch,
  sameRequest,
  searchFromFilters,
  type TxLogFilters,
  type TxLogSearch,
  withLimit,
  withPage,
} from './tx-log-search.ts';

/** The log's part of the URL and how to change it (push; `replace` for corrections). */
export interface TxLogUrl {
  search: TxLogSearch;
  onSearch: (next: TxLogSearch, options?: { replace?: boolean }) => void;
}

/**
 * The log of `scope` (own or all) driven by the URL `search`; returns the query, the filter form and the
 * paging actions. `words` says the filters' SPEC §5 messages with the form's labels (`wordsOf`).
 */
export function useTxLog(
  { search, onSearch }: TxLogUrl,
  scope: 'own' | 'all',
  words: (message: string) => string = (message) => message,
) {
  const query = useTransactions(scope, requestFromSearch(search));
  const queryClient = useQueryClient();
  const [seeking, setSeeking] = useState(false);
  const page = pageOf(search);
  const limit = limitOf(search);

  const form = useForm<TxLogFilters>({
    mode: 'controlled',
    initialValues: filtersFromSearch(search),
    validate: schemaValidate<TxLogFilters>(transactionsRequest, requestFromFilters, words),
  });

  // The inputs follow the URL when its filters change (Back/Forward, a shared link); a new page or page
  // size alone leaves a half-typed filter where it is.
  const filtersKey = JSON.stringify(searchFromFilters({ ...filtersFromSearch(search), limit: '10' }));
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the URL's filters, read through `search`
  useEffect(() => {
    form.setValues(filtersFromSearch(search));
    form.clearErrors();
  }, [filtersKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the URL's page size
  useEffect(() => {
    form.setFieldValue('limit', String(limit));
  }, [limit]);

  /** Search / Enter: the form's filters into the URL on page 1; the same search again refetches. */
  const submit = form.onSubmit((values) => {
    const next = searchFromFilters(values);
    if (sameRequest(next, search)) void query.refetch();
    else onSearch(next);
  });

  const { paging: _paging, ...applied } = requestFromSearch(search);
  return {
    query,
    form,
    submit,
    /** The filters the list shows (the URL's, paging left out): what "Export CSV" exports. */
    applied,
    page,
    limit,
    goToPage: (p: number) => onSearch(withPage(search, p)),
    /**
     * To the page holding the newest row at or before `date` ('YYYY-MM-DD'): the server finds the page and
     * answers it, which is kept as that page's answer, so the page shows without a second request.
     */
    goToDate: async (date: string) => {
      setSeeking(true);
      try {
        const { page: found, ...answer } = await getTransactions(scope, {
          ...requestFromSearch(search),
          seekDate: date,
        });
        const next = withPage(search, found ?? 1);
        queryClient.setQueryData(queryKeys.transactions(scope, requestFromSearch(next)), answer);
        onSearch(next);
      } finally {
        setSeeking(false);
      }
    },
    seeking,
    /** A new page size applies at once, back on page 1 (the admin's Record limit). */
    setLimit: (n: number) => onSearch(withLimit(search, n)),
    /** SPEC §4: on error the page goes back by one (replacing the failed page in the history). */
    stepBackAfterError: () => {
      if (page > 1) onSearch(withPage(search, pageAfterError(page)), { replace: true });
    },
  };
}
