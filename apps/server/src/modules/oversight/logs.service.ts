/** The access and admin logs as an admin reads them (SPEC §2 Access Logs, Admin Logs). */
import type {
  GetAccessLogsRequest,
  GetAccessLogsResponse,
  GetAdminLogsRequest,
  GetAdminLogsResponse,
} from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { findAccessLogs, findAdminLogs } from './logs.queries.ts';

/** Admin: a page of sign-ins (SPEC §2 Access Logs) with `total`. */
export async function getAccessLogs(db: Db, filters: GetAccessLogsRequest): Promise<GetAccessLogsResponse> {
  return { ...(await findAccessLogs(db, filters)), message: 'OK' };
}

/** Admin: a page of admin actions (SPEC §2 Admin Logs) with `total`. */
export async function getAdminLogs(db: Db, filters: GetAdminLogsRequest): Promise<GetAdminLogsResponse> {
  return { ...(await findAdminLogs(db, filters)), message: 'OK' };
}
