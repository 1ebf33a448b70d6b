/**
 * The shell's notices (SPEC §2): the Beta Disclaimer when it is due and the defcon notice when the alert
 * level is above 0, one dialog at a time. Each dialog's code loads only when it has
 * something to show; the disclaimer is plain markup (a first visit paints without Mantine),
 * the defcon notice loads Mantine with it.
 */
import { lazy, Suspense, useState } from 'react';
import { useDefcon } from '../../../lib/defcon.ts';
import { WithMantine } from '../../../lib/with-mantine.tsx';
import { isDisclaimerDue, readStoredDisclaimer } from '../utils/disclaimer.ts';

const DisclaimerModal = lazy(() => import('./DisclaimerModal.tsx').then((m) => ({ default: m.DisclaimerModal })));
const DefconModal = lazy(() => import('./DefconModal.tsx').then((m) => ({ default: m.DefconModal })));

/**
 * The disclaimer first, then the alert notice, never both at once (two modal dialogs stacked behind a
 * doubled backdrop left the lower one's button out of reach). The disclaimer goes first
 * because it is the gate to the whole app (SPEC §2/§4: nothing is used before it is accepted, the
 * page behind it is inert), while the alert notice is news that loses nothing by waiting the moment it
 * takes to tick a box; and the disclaimer is known at once on load whereas the level arrives from the
 * server a moment later (and live), so an alert never pushes away a disclaimer the visitor is reading.
 */
export function Alerts() {
  const [disclaimerDue, setDisclaimerDue] = useState(() => isDisclaimerDue(readStoredDisclaimer(), Date.now()));
  const data = useDefcon();
  return (
    <Suspense fallback={null}>
      {disclaimerDue && <DisclaimerModal onAccepted={() => setDisclaimerDue(false)} />}
      {!disclaimerDue && (data?.defconLvl ?? 0) > 0 && (
        <WithMantine>
          <DefconModal />
        </WithMantine>
      )}
    </Suspense>
  );
}
