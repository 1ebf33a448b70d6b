/** /userbank: the bank feature's user area with the forge's Forge tab and Forge Logs and the store's Checkout Logs composed in. */
import { lazy } from 'react';
import { UserBankPage as BankUserArea, type UserBankPanels } from '../../features/bank/components/UserBankPage.tsx';

const PANELS: UserBankPanels = {
  forge: lazy(() => import('../../features/forge/components/ForgeTab.tsx').then((m) => ({ default: m.ForgeTab }))),
  checkoutLogs: lazy(() =>
    import('../../features/checkout/components/CheckoutLogs.tsx').then((m) => ({ default: m.CheckoutLogs })),
  ),
  forgeLogs: lazy(() =>
    import('../../features/forge/components/ForgeLogs.tsx').then((m) => ({ default: m.ForgeLogs })),
  ),
};

export function UserBankPage() {
  return <BankUserArea panels={PANELS} />;
}
