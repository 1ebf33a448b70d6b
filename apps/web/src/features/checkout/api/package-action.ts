/**
 * POST /api/checkout/packages/{delete|publish|setactive} (admin; DESIGN §7): one package's delete,
 * publish (once) and active flag. Each answers `{package, message}`.
 */
import type { PackageResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { usePackageMutation } from './package-mutation.ts';

export type PackageAction =
  | { kind: 'delete' | 'publish'; objectId: string }
  | { kind: 'setactive'; objectId: string; flag: boolean };

export function packageAction(action: PackageAction): Promise<PackageResponse> {
  const { kind, ...body } = action;
  return api<PackageResponse>('POST', `/checkout/packages/${kind}`, body);
}

export function usePackageAction() {
  return usePackageMutation(packageAction);
}
