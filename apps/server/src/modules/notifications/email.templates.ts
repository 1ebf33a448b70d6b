/**
 * The mails of notifications a member chose to get by e-mail too (DESIGN §11.3): one notification is one
 * mail (its title, its line and a link to what it is about); several at once are one digest that lists
 * them and links to the notifications page. Each says where the choice is changed.
 */
import { escapeHtml, type Mail } from '../../lib/mailer.ts';

/** Most notifications a digest lists one by one; it counts the others ("and 3 more"). */
export const DIGEST_LIST_MAX = 20;

/** The web page that lists a member's notifications, and Settings' card of their e-mail choices. */
const NOTIFICATIONS_PAGE = '/notifications';
const SETTINGS_PAGE = '/userconfig#notifications';

/** A notification as its mail shows it: its words and link (a path of the web, an https URL, or null). */
export interface MailedNotification {
  title: string;
  body: string;
  link: string | null;
}

/** Whom a notification mail goes to: the confirmed address and the nickname it greets. */
export interface MailRecipient {
  email: string;
  nickname: string;
}

/** `path` on the site at `publicUrl`, absolute. */
function onSite(publicUrl: string, path: string): string {
  return `${publicUrl.replace(/\/$/, '')}${path}`;
}

/**
 * The absolute link of a notification: its path of the web on the site, its https URL as it is, and the
 * notifications page when it has neither.
 */
export function mailLink(publicUrl: string, link: string | null): string {
  if (link?.startsWith('/') && !link.startsWith('//')) return onSite(publicUrl, link);
  if (link?.startsWith('https://')) return link;
  return onSite(publicUrl, NOTIFICATIONS_PAGE);
}

/** The closing line of every notification mail, with the link to change the choice. */
function footerOf(publicUrl: string): { text: string; link: string } {
  return {
    text: 'You get this mail because you chose it in Settings → Notifications, where you can change what comes by e-mail:',
    link: onSite(publicUrl, SETTINGS_PAGE),
  };
}

/** The HTML body: a heading, the greeting, `inner` (already HTML), a button to `link`, the footer. */
function page(heading: string, greeting: string, inner: string, link: string, action: string, publicUrl: string) {
  const footer = footerOf(publicUrl);
  return `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>
<p>${escapeHtml(greeting)}</p>
${inner}
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#228be6;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(footer.text)} <a href="${escapeHtml(footer.link)}">${escapeHtml(footer.link)}</a></p>
</body></html>`;
}

/** The mail of one notification `n` to `to`: its title as the subject, its line, a link to what it is about. */
export function notificationMail(to: MailRecipient, n: MailedNotification, publicUrl: string): Mail {
  const link = mailLink(publicUrl, n.link);
  const greeting = `Hello ${to.nickname},`;
  const footer = footerOf(publicUrl);
  const text = `${greeting}\n\n${n.title}\n${n.body}\n\nOpen it: ${link}\n\n${footer.text}\n${footer.link}\n`;
  const inner = `<p><strong>${escapeHtml(n.title)}</strong><br>${escapeHtml(n.body)}</p>`;
  return {
    to: to.email,
    subject: n.title,
    text,
    html: page(n.title, greeting, inner, link, 'Open it', publicUrl),
    link,
  };
}

/**
 * The digest of `list` (two or more notifications, oldest first) to `to`: each one's title and line, up to
 * `DIGEST_LIST_MAX` of them and then how many more, with a link to the notifications page.
 */
export function digestMail(to: MailRecipient, list: readonly MailedNotification[], publicUrl: string): Mail {
  const link = onSite(publicUrl, NOTIFICATIONS_PAGE);
  const subject = `${list.length} new notifications on Starlight`;
  const greeting = `Hello ${to.nickname}, here is what happened on your Starlight account:`;
  const shown = list.slice(0, DIGEST_LIST_MAX);
  const more = list.length - shown.length;
  const moreLine = more > 0 ? `and ${more} more` : null;
  const footer = footerOf(publicUrl);
  const text = [
    `${greeting}\n`,
    ...shown.map((n) => `- ${n.title}: ${n.body}`),
    ...(moreLine ? [moreLine] : []),
    `\nSee them all: ${link}\n`,
    `${footer.text}\n${footer.link}\n`,
  ].join('\n');
  const items = shown.map((n) => `<li><strong>${escapeHtml(n.title)}</strong><br>${escapeHtml(n.body)}</li>`);
  const inner = `<ul style="padding-left:20px">${items.join('')}</ul>${moreLine ? `<p>${escapeHtml(moreLine)}</p>` : ''}`;
  return { to: to.email, subject, text, html: page(subject, greeting, inner, link, 'See them all', publicUrl), link };
}
