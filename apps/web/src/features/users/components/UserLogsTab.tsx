/**
 * SPEC §2 Admin Console, User Logs: accounts (POST /api/user/getUsers) with filters record limit,
 * nickname, email, role, isActive, isWalletOnly, isEmailVerified, isAnonymous, created after/before;
 * columns Nickname (12+ characters shortened, a dialog shows the whole one), Created, Updated, Email
 * Verified, Wallet Only, Anonymous, Active, Role, Has Currency. Empty: 'No Users'.
 */
import { Anchor, Modal, NativeSelect, Text, TextInput } from '@mantine/core';
import { formatDate, shortenNickname } from '@starlight/shared';
import { useState } from 'react';
import { DateFilterInput } from '../../../components/DateFilterInput.tsx';
import { PagedTableCard } from '../../../components/PagedTableCard.tsx';
import { ExportCsvButton } from '../../../lib/exports/ExportCsvButton.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { nonEmpty, usePagedFilters } from '../../../lib/use-paged-filters.ts';
import { useUsers } from '../api/get-users.ts';

const COLUMNS = [
  'Nickname',
  'Created',
  'Updated',
  'Email Verified',
  'Wallet Only',
  'Anonymous',
  'Active',
  'Role',
  'Has Currency',
];
const ANY = [
  { value: '', label: 'Any' },
  { value: 'true', label: 'True' },
  { value: 'false', label: 'False' },
];
const ROLES = [
  { value: '', label: 'Any' },
  { value: 'admin', label: 'Admin' },
  { value: 'user', label: 'User' },
  { value: 'creator', label: 'Creator' },
];
const EMPTY = {
  nickname: '',
  email: '',
  role: '',
  isActive: '',
  isWalletOnly: '',
  isEmailVerified: '',
  isAnonymous: '',
  createdAfter: '',
  createdBefore: '',
};
const FLAGS = [
  ['isActive', 'Active'],
  ['isWalletOnly', 'Wallet only'],
  ['isEmailVerified', 'Email verified'],
  ['isAnonymous', 'Anonymous'],
] as const;

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

export function UserLogsTab() {
  const f = usePagedFilters(EMPTY);
  const users = useUsers({ paging: { limit: f.limit, page: f.page }, ...nonEmpty(f.applied) });
  useErrorToast(users.error, users.errorUpdatedAt, f.stepBack);
  const [fullName, setFullName] = useState<string | null>(null);
  const rows = users.data?.users.map((u) => ({
    key: u._id,
    cells: [
      u.nickname.length >= 12 ? (
        <Anchor
          key="nickname"
          component="button"
          type="button"
          size="sm"
          c="inherit"
          underline="always"
          onClick={() => setFullName(u.nickname)}
        >
          {shortenNickname(u.nickname)}
        </Anchor>
      ) : (
        u.nickname
      ),
      formatDate(u.createdAt, true),
      formatDate(u.updatedAt, true),
      yesNo(u.isEmailVerified),
      yesNo(u.isWalletOnly),
      yesNo(u.isAnonymous),
      yesNo(u.isActive),
      u.role,
      yesNo(u.hasCurrency),
    ],
  }));
  return (
    <>
      <PagedTableCard
        title="User Logs"
        filters={
          <>
            <TextInput
              label="Nickname"
              value={f.draft.nickname}
              onChange={(e) => f.set('nickname', e.currentTarget.value)}
            />
            <TextInput label="Email" value={f.draft.email} onChange={(e) => f.set('email', e.currentTarget.value)} />
            <NativeSelect
              label="Role"
              data={ROLES}
              value={f.draft.role}
              onChange={(e) => f.set('role', e.currentTarget.value)}
            />
            {FLAGS.map(([key, label]) => (
              <NativeSelect
                key={key}
                label={label}
                data={ANY}
                value={f.draft[key]}
                onChange={(e) => f.set(key, e.currentTarget.value)}
              />
            ))}
            <DateFilterInput
              label="Created after"
              value={f.draft.createdAfter || null}
              onChange={(v) => f.set('createdAfter', v ?? '')}
            />
            <DateFilterInput
              label="Created before"
              value={f.draft.createdBefore || null}
              onChange={(v) => f.set('createdBefore', v ?? '')}
            />
          </>
        }
        onSearch={f.search}
        actions={<ExportCsvButton path="/api/user/users.csv" filters={f.applied} />}
        searching={users.isFetching}
        limit={f.limit}
        onLimit={f.setLimit}
        page={f.page}
        total={users.data?.total ?? 0}
        totalCapped={users.data?.totalCapped}
        onPage={f.setPage}
        columns={COLUMNS}
        rows={rows}
        empty="No Users"
      />
      <Modal opened={fullName !== null} onClose={() => setFullName(null)} title="Nickname" centered>
        <Text style={{ overflowWrap: 'anywhere' }}>{fullName}</Text>
      </Modal>
    </>
  );
}
