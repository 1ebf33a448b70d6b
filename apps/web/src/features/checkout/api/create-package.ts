/** POST /api/checkout/packages/create (admin; DESIGN §7): an unpublished package of Credits. `{package, message}`. */
import type { CreatePackageRequest, PackageResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { usePackageMutation } from './package-mutation.ts';

export function createPackage(body: CreatePackageRequest): Promise<PackageResponse> {
  return api<PackageResponse>('POST', '/checkout/packages/create', body);
}

export function useCreatePackage() {
  return usePackageMutation(createPackage);
}
