/**
 * The notification mail job (DESIGN §11.3): every few seconds, on one replica at a time, it takes the
 * notifications due by e-mail (the member chose the kind; `mail_pending`, set by their INSERT), oldest
 * first in bounded batches, clears their flag in the same transaction, and after the commit mails each
 * member once per batch: one notification as itself, several as one digest. Then the broadcasts and alert
 * levels (one row each, none per member): it walks the members who chose their kind a page at a time,
 * moving the broadcast's marker in the transaction that takes the page, and mails each member it reaches.
 * Mails count against the per-recipient hourly budget (`mayMail`, `NOTIFICATION_MAILS_PER_HOUR`) of their
 * own; past it, or when the relay fails, the mail is not sent and that is logged: a taken row or page is
 * never taken again, so nothing is retried forever and nothing goes twice. The notifications themselves
 * stay in the app either way.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { FailureCounter } from '../../lib/failure-counter.ts';
import { type Mailer, mayMail } from '../../lib/mailer.ts';
import { type PeriodicJob, startPeriodic, withJobLock } from '../../lib/periodic.ts';
import { digestMail, type MailedNotification, type MailRecipient, notificationMail } from './email.templates.ts';
import { type DueMailRow, takeBroadcastMails, takeDueMails } from './notifications.queries.ts';

/** What mailing notifications needs (built by notifications.module.ts from the configuration). */
export interface NotificationMailDeps {
  db: Db;
  mailer: Mailer;
  /** The mail counter shared with the site's other mails (Redis when there is one). */
  mailsSent: FailureCounter;
  /** Notification mails to one address per hour (`NOTIFICATION_MAILS_PER_HOUR`). */
  maxMailsPerRecipient: number;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/** The job's name: its advisory lock and its log lines. */
const JOB = 'mail-notifications';
/** The lock of the broadcasts' pages, apart, so one replica may mail notifications while another broadcasts. */
const BROADCAST_LOCK = 'mail-broadcasts';
/** Notifications (or members of a broadcast's kind) one transaction takes. */
const BATCH = 500;
/** Batches one tick takes at most, so a tick ends (the next one goes on with the rest). */
const BATCHES_PER_TICK = 20;
/** Mails sent at once. */
const SENDING_AT_ONCE = 8;
/** The per-recipient budget of these mails (`mayMail`), apart from the links' and the receipts'. */
const MAIL_KIND = 'notifications';

/** One member's mail of a batch: where it goes and what it tells, oldest first. */
interface MemberMail {
  to: MailRecipient;
  list: MailedNotification[];
}

/** The taken rows per member, without those whose member has no confirmed address now. */
function perMember(rows: readonly DueMailRow[]): MemberMail[] {
  const byMember = new Map<string, MemberMail>();
  for (const r of rows) {
    if (!r.email) continue;
    let m = byMember.get(r.user_id);
    if (!m) {
      m = { to: { email: r.email, nickname: r.nickname ?? '' }, list: [] };
      byMember.set(r.user_id, m);
    }
    m.list.push({ title: r.title, body: r.body, link: r.link });
  }
  return [...byMember.values()];
}

/** Sends `m`'s mail within the per-recipient limit; a refusal of the relay is logged, never thrown. */
async function sendOne(deps: NotificationMailDeps, m: MemberMail): Promise<void> {
  try {
    if (!(await mayMail(deps.mailsSent, deps.maxMailsPerRecipient, MAIL_KIND, m.to.email))) {
      deps.log.warn({ to: m.to.email, notifications: m.list.length }, 'notification mail over the hourly budget');
      return;
    }
    const [only] = m.list;
    const mail =
      m.list.length === 1 && only
        ? notificationMail(m.to, only, deps.publicUrl)
        : digestMail(m.to, m.list, deps.publicUrl);
    await deps.mailer.send(mail);
  } catch (err) {
    deps.log.error({ err, to: m.to.email, notifications: m.list.length }, 'notification mail not sent');
  }
}

/**
 * One tick: takes due notifications a batch at a time under the job's lock (`withJobLock`: one replica
 * takes at a time; `FOR UPDATE SKIP LOCKED` besides), each batch committed before its mails go, so a slow
 * relay holds no lock and a mail never goes for a row that was not taken.
 */
async function mailDueNotifications(deps: NotificationMailDeps): Promise<void> {
  for (let i = 0; i < BATCHES_PER_TICK; i++) {
    const rows = await withJobLock(deps.db, JOB, (tx) => takeDueMails(tx, BATCH));
    if (!rows) return;
    await sendAll(deps, perMember(rows));
    if (rows.length < BATCH) return;
  }
}

/** Sends `mails`, `SENDING_AT_ONCE` at a time. */
async function sendAll(deps: NotificationMailDeps, mails: readonly MemberMail[]): Promise<void> {
  for (let at = 0; at < mails.length; at += SENDING_AT_ONCE) {
    await Promise.all(mails.slice(at, at + SENDING_AT_ONCE).map((m) => sendOne(deps, m)));
  }
}

/**
 * One tick's broadcast mails: pages of the members who chose a due broadcast's kind (`takeBroadcastMails`),
 * each taken under the lock and committed with the broadcast's marker before its mails go, so a crash or a
 * second replica never mails a member twice.
 */
async function mailDueBroadcasts(deps: NotificationMailDeps): Promise<void> {
  for (let i = 0; i < BATCHES_PER_TICK; i++) {
    const rows = await withJobLock(deps.db, BROADCAST_LOCK, (tx) => takeBroadcastMails(tx, BATCH));
    if (!rows) return;
    await sendAll(deps, perMember(rows));
  }
}

/** Starts the notification mail job, a tick every `everyMs` milliseconds on each replica; stop it on close. */
export function startNotificationMails(deps: NotificationMailDeps, everyMs: number): PeriodicJob {
  const tick = async () => {
    await mailDueNotifications(deps);
    await mailDueBroadcasts(deps);
  };
  return startPeriodic({ name: JOB, everyMs, log: deps.log, tick });
}
