/**
 * Buying Credits (DESIGN §7; SPEC §2 /checkout, Checkout Logs): a member buys a package through a
 * provider (1 crypto, 2 card; the sandbox when that provider has no settings), and the provider's
 * signed events move the checkout through its states (`checkout.events.ts`). Webhook handlers verify,
 * then record and apply the event in one transaction, and answer once it is stored.
 */
import { createHash } from 'node:crypto';
import {
  AppError,
  type BuyPackageRequest,
  type BuyPackageResponse,
  CHECKOUT_STATE,
  type CheckoutsResponse,
  CREDITS_CURRENCY_ID,
  type GetAllCheckoutsRequest,
  type GetCheckoutsRequest,
  type ProviderId,
  type SandboxAction,
} from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import type { AuthUser } from '../../http/access.ts';
import { inLiveTransaction } from '../../http/money-moving.ts';
import type { GroupCommit } from '../../lib/group-commit.ts';
import type { KeptTotals } from '../../lib/kept-totals.ts';
import { type ChangePublisher, LiveChanges } from '../../lib/live-changes.ts';
import { requireCurrency, requireMintable, requireNotFrozen } from '../bank/currencies.service.ts';
import { type NamedEvent, namesCheckout } from './checkout.batch.ts';
import { applyProviderEvent, costCents, type EventOutcome } from './checkout.events.ts';
import {
  type CheckoutLookup,
  findCheckout,
  findCheckouts,
  insertCheckout,
  recordRefusedEvent,
  updateCheckout,
} from './checkout.queries.ts';
import { findPackage } from './packages.queries.ts';
import { type Headers, type PaymentProvider, type ProviderEvent, RefusedEvent } from './providers/provider.ts';
import type { sandboxProvider } from './providers/sandbox.ts';

export interface CheckoutDeps {
  db: Db;
  /** Lag-tolerant reads, a standby when there is one: the admin's checkout list. */
  readDb: Db;
  /**
   * The provider serving each provider id: a real one with settings, else the sandbox when
   * CHECKOUT_SANDBOX is on; an id nothing serves is absent.
   */
  providers: Map<ProviderId, PaymentProvider>;
  /** The site's public origin: where providers send the member back. */
  publicUrl: string;
  log: { debug(msg: string): void; warn(msg: string): void };
  /** Mails a completed purchase's receipt after its commit (checkout.receipt.ts); absent: no receipts. */
  receipt?: ((by: CheckoutLookup) => void) | undefined;
}

/**
 * The provider serving `id`, or CONFLICT `No payment provider is configured` (DESIGN §3: a rule of the
 * site's set-up refuses, not an unknown object; nothing to retry, so not a 503).
 */
function provider(deps: CheckoutDeps, id: ProviderId): PaymentProvider {
  const p = deps.providers.get(id);
  if (!p) throw new AppError('CONFLICT', 'No payment provider is configured');
  return p;
}

/** The provider ids a purchase can use now, ascending (empty when no payment provider is configured). */
export function availableProviders(deps: CheckoutDeps): ProviderId[] {
  return [...deps.providers.keys()].sort((a, b) => a - b);
}

/**
 * `buyPackage {packageId, providerId}` (DESIGN §7): opens a checkout (state 1 Created) of a published,
 * active package and the provider's payment page for it. Answers `{link, checkout, message}`. Throws
 * NOT_FOUND (`Package not found`: none, deleted, unpublished or inactive), CONFLICT `No payment
 * provider is configured` when nothing serves `providerId` (no settings and the sandbox off: nothing is
 * opened), CONFLICT `CR cannot be minted` or the frozen note while Credits cannot be issued (nothing is
 * opened), and CONFLICT when the provider refuses (the checkout is then cancelled). Once the checkout is
 * written, `publisher` hears that the member changed (their kept checkout totals), whatever follows.
 */
export async function buyPackage(
  deps: CheckoutDeps,
  publisher: ChangePublisher,
  member: AuthUser,
  input: BuyPackageRequest,
  ip: string,
): Promise<BuyPackageResponse> {
  const pkg = await findPackage(deps.db, input.packageId);
  if (!pkg?.published || !pkg.active) throw new AppError('NOT_FOUND', 'Package not found');
  const via = provider(deps, input.providerId);
  // No payment is taken for Credits that could not be issued: the rule every path that creates value
  // follows (DESIGN §4 canMint). A completion still credits what was paid, whatever the flag.
  const credits = await requireCurrency(deps.db, CREDITS_CURRENCY_ID);
  requireMintable(credits);
  requireNotFrozen(credits);
  const id = await insertCheckout(deps.db, {
    userId: member.id,
    packageId: pkg.id,
    packageName: pkg.name,
    providerId: input.providerId,
    ip,
    cost: pkg.cost,
    amount: pkg.amount,
  });
  try {
    return await openPayment(deps, via, pkg, id, input.providerId);
  } finally {
    const changes = new LiveChanges();
    changes.touchUser(member.id);
    publisher.add(changes);
  }
}

/** Opens the provider's payment page for the new checkout `id` of `pkg` (see `buyPackage`). */
async function openPayment(
  deps: CheckoutDeps,
  via: PaymentProvider,
  pkg: NonNullable<Awaited<ReturnType<typeof findPackage>>>,
  id: string,
  providerId: ProviderId,
): Promise<BuyPackageResponse> {
  let payment: { link: string; refId: string };
  try {
    payment = await via.createPayment({
      checkoutId: id,
      packageId: pkg.id,
      name: pkg.name,
      description: pkg.description,
      costCents: costCents(pkg.cost),
      successUrl: `${deps.publicUrl}/provider?checkout=${id}`,
      cancelUrl: `${deps.publicUrl}/checkout`,
    });
  } catch (err) {
    await updateCheckout(deps.db, id, { state: CHECKOUT_STATE.Cancelled });
    deps.log.warn(`checkout ${id}: provider ${providerId} refused: ${(err as Error).message}`);
    throw err instanceof AppError
      ? err
      : new AppError('CONFLICT', 'The payment provider is not available, try again later');
  }
  await updateCheckout(deps.db, id, { refId: payment.refId });
  const [checkout] = (await findCheckouts(deps.db, { id, limit: 1, page: 1 })).transactions;
  if (!checkout) throw new Error(`checkout ${id} vanished`);
  return { link: payment.link, checkout, message: 'Redirecting to the payment provider' };
}

/** The configured provider of `kind` (a webhook route's), or NOT_FOUND `Provider not configured`. */
export function providerOfKind(deps: CheckoutDeps, kind: 'stripe' | 'btcpay'): PaymentProvider {
  const via = [...deps.providers.values()].find((p) => p.kind === kind);
  if (!via) throw new AppError('NOT_FOUND', 'Provider not configured');
  return via;
}

/**
 * A webhook of provider `via` with its raw body and headers: verified by the provider (AppError
 * VALIDATION `Invalid signature`, nothing recorded), then recorded and applied in one transaction.
 * Returns the outcome; a duplicate is `duplicate` and changed nothing. With `batches`, an event that names
 * its checkout by our id goes by group commit (checkout.batch.ts). An authentic body that cannot be
 * read (RefusedEvent, VALIDATION with the first field error) is logged at warn with the provider and the
 * reason, recorded once per body as `refused` naming no checkout, and changes nothing else.
 */
export async function receiveWebhook(
  deps: CheckoutDeps,
  publisher: ChangePublisher,
  via: PaymentProvider,
  raw: string,
  headers: Headers,
  batches?: GroupCommit<NamedEvent, EventOutcome>,
): Promise<EventOutcome> {
  let event: ProviderEvent;
  try {
    event = await via.parseWebhook(raw, headers);
  } catch (err) {
    if (err instanceof RefusedEvent) await refuse(deps, via, raw, err);
    throw err;
  }
  const outcome =
    batches && namesCheckout(event)
      ? await batches.submit('events', event)
      : await inLiveTransaction(deps.db, publisher, (tx, changes) =>
          applyProviderEvent(tx, event, changes, (m) => deps.log.warn(m)),
        );
  // Committed: the completing event (only it; a redelivery is a duplicate) mails the receipt.
  if (outcome === 'completed') {
    deps.receipt?.({
      id: event.checkoutId,
      providerId: event.providerId,
      refId: event.refId,
      paymentRef: event.paymentRef,
    });
  }
  // Debug, not info: a webhook request already has its one info line (DESIGN §9).
  deps.log.debug(`checkout event ${event.eventType} ${event.eventId}: ${outcome}`);
  return outcome;
}

/**
 * Logs and records the refused event `err` of `via` (see receiveWebhook). Its deduplication key is the
 * SHA-256 of the raw body under a `refused:` prefix, which no provider's event id takes, so a refused
 * body never stands in the way of a real event with the id it claimed.
 */
async function refuse(deps: CheckoutDeps, via: PaymentProvider, raw: string, err: RefusedEvent): Promise<void> {
  const eventId = `refused:${createHash('sha256').update(raw).digest('hex')}`;
  const recorded = await recordRefusedEvent(deps.db, {
    providerId: via.providerId,
    eventId,
    eventType: err.eventType,
    payload: err.payload,
  });
  deps.log.warn(
    `checkout event refused: provider ${via.providerId} (${via.kind}) sent a signed ${err.eventType || 'event'} that cannot be read: ${err.message}${recorded ? '' : ' (again)'}`,
  );
}

/**
 * The sandbox page's button `action` on the member's checkout `checkoutId` (DESIGN §7): the sandbox
 * signs the event a provider would send and it takes the webhook path. Answers `{outcome, message}`.
 * Throws NOT_FOUND for another member's checkout, one a real provider serves, or any when the sandbox
 * is off (CHECKOUT_SANDBOX), even one it opened before.
 */
export async function sandboxAction(
  deps: CheckoutDeps,
  publisher: ChangePublisher,
  member: AuthUser,
  checkoutId: string,
  action: SandboxAction,
): Promise<{ outcome: string; message: string }> {
  const c = await findCheckout(deps.db, checkoutId);
  const via = c ? deps.providers.get(c.providerId as ProviderId) : undefined;
  if (!c || c.userId !== member.id || via?.kind !== 'sandbox') throw new AppError('NOT_FOUND', 'Checkout not found');
  const sandbox = via as ReturnType<typeof sandboxProvider>;
  const { raw, headers } = sandbox.sandboxEvent(action, {
    id: c.id,
    costCents: costCents(c.cost),
    packageId: c.packageId,
  });
  const outcome = await receiveWebhook(deps, publisher, sandbox, raw, headers);
  const messages: Partial<Record<EventOutcome, string>> = {
    completed: 'Payment received: your Credits are in your account',
    cancelled: 'Payment failed: nothing was charged',
    delayed: 'Payment delayed: it will complete later',
    ignored: 'This checkout is already settled',
    resolved: 'Payment refunded: the Credits still held were taken back',
  };
  return { outcome, message: messages[outcome] ?? `Event ${outcome}` };
}

/**
 * `getTransactions {paging, filters}`: the member's own checkouts, newest first. The total is the member's
 * kept one (`totals`, lib/kept-totals.ts): a checkout is written by its purchase (`buyPackage`) and its
 * provider's events (`applyToLocked`, a batch's completions), each of which names the member.
 */
export async function getTransactions(
  db: Db,
  member: AuthUser,
  req: GetCheckoutsRequest,
  totals: KeptTotals,
): Promise<CheckoutsResponse> {
  const key = JSON.stringify(['checkouts', req.filters ?? null, (req.paging.page - 1) * req.paging.limit]);
  const found = await findCheckouts(db, { ...req.filters, userId: member.id, ...req.paging }, (count) =>
    totals.total(member.id, key, count),
  );
  return { ...found, message: found.total === 0 ? 'No logs found' : `Got ${found.total} checkout(s)` };
}

/** Admin `getAllTransactions {paging, filters}` (SPEC §2 Checkout Logs): every member's checkouts. */
export async function getAllTransactions(db: Db, req: GetAllCheckoutsRequest): Promise<CheckoutsResponse> {
  const found = await findCheckouts(db, { ...req.filters, ...req.paging });
  return { ...found, message: found.total === 0 ? 'No logs found' : `Got ${found.total} checkout(s)` };
}
