/** The mails Starlight sends (DESIGN §8): plain text and HTML, each with its link and what it is for. */
import { escapeHtml, type Mail } from '../../lib/mailer.ts';

function layout(title: string, lead: string, link: string, action: string, footer: string): string {
  return `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
<p>${escapeHtml(lead)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#228be6;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px;color:#555">Or open this address: <br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(footer)}</p>
</body></html>`;
}

/** The verification mail: `link` proves that `to` belongs to `nickname`; valid 24 hours. */
export function verificationMail(to: string, nickname: string, link: string): Mail {
  const lead = `Hello ${nickname}, please confirm that this is your e-mail address on Starlight.`;
  const footer = 'The link works once and expires in 24 hours. If you did not ask for it, ignore this mail.';
  return {
    to,
    subject: 'Verify your Starlight e-mail',
    text: `${lead}\n\nOpen this link to verify your e-mail:\n${link}\n\n${footer}\n`,
    html: layout('Verify your e-mail', lead, link, 'Verify e-mail', footer),
    link,
  };
}

/** The password reset mail: `link` lets the owner of `to` choose a new password; valid 1 hour. */
export function resetPasswordMail(to: string, nickname: string, link: string): Mail {
  const lead = `Hello ${nickname}, someone (we hope you) asked to reset the password of your Starlight account.`;
  const footer =
    'The link works once and expires in 1 hour. If you did not ask for it, ignore this mail: your password stays as it is.';
  return {
    to,
    subject: 'Reset your Starlight password',
    text: `${lead}\n\nOpen this link to choose a new password:\n${link}\n\n${footer}\n`,
    html: layout('Reset your password', lead, link, 'Choose a new password', footer),
    link,
  };
}

/**
 * The sign-in link mail: someone gave `nickname`'s right password while the sign-in limits refused it
 * (DESIGN §8); `link` signs in once; valid 15 minutes.
 */
export function signInLinkMail(to: string, nickname: string, link: string): Mail {
  const lead = `Hello ${nickname}, someone (we hope you) signed in to your Starlight account with the right password, but after too many failed sign-ins we need to know it is you.`;
  const footer =
    'The link works once and expires in 15 minutes. If it was not you, someone knows your password: change it in Settings.';
  return {
    to,
    subject: 'Your Starlight sign-in link',
    text: `${lead}\n\nOpen this link to sign in:\n${link}\n\n${footer}\n`,
    html: layout('Sign in to Starlight', lead, link, 'Sign in', footer),
    link,
  };
}
