/**
 * SPEC §2/§4: the Beta Disclaimer (v0.0.1), shown when due (../disclaimer.ts). Accept stays disabled
 * until the box is ticked; Escape does not close it. A native modal <dialog> (focus kept inside, the
 * page inert behind it) in plain markup, so a first visit paints without Mantine.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { DISCLAIMER_KEY, DISCLAIMER_VERSION } from '../utils/disclaimer.ts';
import classes from './disclaimer.module.css';

/**
 * The dialog, open from the start: the shell mounts it only when the disclaimer is due. `onAccepted`
 * runs once Accept has stored the acceptance and closed it (the shell then shows the next notice).
 */
export function DisclaimerModal({ onAccepted }: { onAccepted?: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [agreed, setAgreed] = useState(false);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      dialog.showModal();
      // Start on the dialog itself (not on its first control), so nothing looks pre-selected.
      dialog.focus();
    }
  }, []);
  const accept = () => {
    const next = new Date();
    next.setMonth(next.getMonth() + 1);
    localStorage.setItem(DISCLAIMER_KEY, JSON.stringify({ version: DISCLAIMER_VERSION, nextShow: next.getTime() }));
    ref.current?.close();
    onAccepted?.();
  };
  return (
    <dialog
      ref={ref}
      className={classes.dialog}
      aria-labelledby={titleId}
      tabIndex={-1}
      // Only Accept closes it.
      onCancel={(e) => e.preventDefault()}
    >
      <h2 className={classes.title} id={titleId}>
        Beta Disclaimer ({DISCLAIMER_VERSION})
      </h2>
      {/* The text scrolls when long; the area takes focus so a keyboard can scroll it (axe). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable). */}
      <div className={classes.body} tabIndex={0}>
        <p>
          Starlight is a beta. Everything in it, including its currencies, items, exchange and forge, is provided for
          entertainment only. Starlight is not a bank, a broker or a financial service, and nothing here is financial
          advice.
        </p>
        <p>
          The service is provided "as is" and "as available", without warranty of any kind, express or implied,
          including fitness for a particular purpose, availability, or the absence of errors. Balances and items may be
          reset, corrected or removed while the beta lasts.
        </p>
        <p>
          To the extent the law allows, the Starlight team accepts no liability for any loss or damage arising from the
          use of, or the inability to use, the service.
        </p>
        <p>Please report any bug you find to the team in the community chat: it helps everyone.</p>
      </div>
      <label className={classes.agree}>
        <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.currentTarget.checked)} />
        <span>I have read and agree to the above disclaimer.</span>
      </label>
      <div className={classes.actions}>
        <button type="button" className={classes.accept} disabled={!agreed} onClick={accept}>
          {agreed ? 'Accept' : 'Please read…'}
        </button>
      </div>
    </dialog>
  );
}
