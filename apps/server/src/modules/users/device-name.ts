/** A device's name as the sessions list, the security mails and the security notifications show it. */
import Bowser from 'bowser';

/** Longest device name kept (a forged User-Agent can be long). */
const MAX_DEVICE = 120;

/**
 * A device's name from its User-Agent, as the Settings list shows it: "Chrome 131 on Linux", "Safari on
 * iOS", or "Unknown device". Parsed by Bowser (MIT).
 */
export function deviceName(userAgent: string): string {
  if (userAgent.trim() === '') return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : '';
  const os = parsed.os.name ?? '';
  const name = browser && os ? `${browser} on ${os}` : browser || os || 'Unknown device';
  return name.slice(0, MAX_DEVICE);
}
