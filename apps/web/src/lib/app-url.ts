/**
 * The consent page's guard before it sends the browser off to a creator app (DESIGN §7; RFC 9700 §4.1):
 * only a URL the shared rule `isAppUrl` accepts (`https:`, or `http:` on a loopback host, no credentials,
 * nothing a parser would rewrite) is opened, even though the server already checked it, so a stored or
 * tampered `javascript:` or `data:` URL is never navigated to.
 */
import { isAppUrl } from '@starlight/shared';

/** Shown instead of leaving when the app's URL is not one the browser may open. */
export const UNSAFE_APP_URL = "This app's address is not a safe https address, so it was not opened";

/** Pure: `null` when `url` may be opened, else the message to show instead (`UNSAFE_APP_URL`). */
export function appUrlProblem(url: unknown): string | null {
  return typeof url === 'string' && isAppUrl(url) ? null : UNSAFE_APP_URL;
}

/**
 * Sends the browser to the creator app's `url` (a full navigation off this site) when `appUrlProblem`
 * allows it; otherwise stays and returns the message to show. `assign` is the navigation (the window's
 * by default).
 */
export function leaveForApp(
  url: unknown,
  assign: (url: string) => void = (u) => window.location.assign(u),
): string | null {
  const problem = appUrlProblem(url);
  if (problem === null) assign(url as string);
  return problem;
}
