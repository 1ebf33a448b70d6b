/** A member's data rights (DESIGN §11.6): `GET /user/export` as a file, and `POST /user/deleteAccount`. */
import type { DeleteAccountRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.ts';

/**
 * Downloads the account's own data as a JSON file: fetched with the session's header (never a token in a
 * URL), then saved through an object URL. Throws ApiError with the server's message.
 */
async function downloadAccountData(): Promise<void> {
  const { token } = useSession.getState();
  let res: Response;
  try {
    res = await fetch('/api/user/export', { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError('Network Error', 0);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(body?.message ?? `Request failed with status code ${res.status}`, res.status);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'starlight-account.json';
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** "Download my data". */
export function useDownloadAccountData() {
  return useMutation({ mutationFn: downloadAccountData });
}

/** "Delete my account": on success the session ends here too. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: DeleteAccountRequest) => api<{ message: string }>('POST', '/user/deleteAccount', body),
    onSuccess: () => useSession.getState().clear(),
  });
}
