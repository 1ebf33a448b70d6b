/**
 * The shell's notices (SPEC §2): the Beta Disclaimer when it is due and the defcon notice when the alert
 * level is above 0. Each dialog's code loads only when it has something to show; the disclaimer is plain
 * markup (a first visit paints without Mantine, issue 6 §6), the defcon notice loads Mantine with it.
 */
import { lazy, Suspense, useState } from 'react';
import { useDefcon } from '../../../lib/defcon.ts';
import { WithMantine } from '../../../lib/with-mantine.tsx';
import { isDisclaimerDue, readStoredDisclaimer } from '../disclaimer.ts';

const DisclaimerModal = lazy(() => import('./DisclaimerModal.tsx').then((m) => ({ default: m.DisclaimerModal })));
const DefconModal = lazy(() => import('./DefconModal.tsx').then((m) => ({ default: m.DefconModal })));

export function Alerts() {
  const [disclaimerDue] = useState(() => isDisclaimerDue(readStoredDisclaimer(), Date.now()));
  const data = useDefcon();
  return (
    <Suspense fallback={null}>
      {disclaimerDue && <DisclaimerModal />}
      {(data?.defconLvl ?? 0) > 0 && (
        <WithMantine>
          <DefconModal />
        </WithMantine>
      )}
    </Suspense>
  );
}
