/**
 * Local stand-ins for the payment providers' APIs, speaking their documented wire format
 * on a real HTTP port, so the product code talks to them through the official SDK or protocol unchanged:
 * Stripe's `POST /v1/checkout/sessions` (form-encoded, as stripe-node sends it) and BTCPay Server's
 * Greenfield invoices (`POST` and `GET /api/v1/stores/{storeId}/invoices[/{id}]`).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Stub {
  url: string;
  /** Every request body received, parsed (form fields flattened as Stripe names them, or JSON). */
  requests: Array<{ method: string; path: string; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closer = (server: Server) => () => new Promise<void>((resolve) => server.close(() => resolve()));

/** Stripe's Checkout Sessions endpoint: answers a session with an id and a payment page URL. */
export async function startStripeStub(): Promise<Stub> {
  const requests: Stub['requests'] = [];
  const server = createServer(async (req, res) => {
    const raw = await bodyOf(req);
    const body = Object.fromEntries(new URLSearchParams(raw));
    requests.push({ method: req.method ?? '', path: req.url ?? '', body });
    res.setHeader('content-type', 'application/json');
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
      const id = `cs_test_${randomBytes(8).toString('hex')}`;
      res.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          client_reference_id: body.client_reference_id,
          amount_total: Number(body['line_items[0][price_data][unit_amount]']),
          currency: body['line_items[0][price_data][currency]'],
          payment_status: 'unpaid',
          status: 'open',
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `No such route ${req.url}` } }));
  });
  const url = await listen(server);
  return { url, requests, close: closer(server) };
}

/** BTCPay Server's Greenfield invoices of one store: created with their amount and metadata, read back by id. */
export async function startBtcpayStub(
  storeId: string,
  apiKey: string,
): Promise<Stub & { invoices: Map<string, Record<string, unknown>> }> {
  const requests: Stub['requests'] = [];
  const invoices = new Map<string, Record<string, unknown>>();
  const server = createServer(async (req, res) => {
    const raw = await bodyOf(req);
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    requests.push({ method: req.method ?? '', path: req.url ?? '', body });
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization !== `token ${apiKey}`) {
      res.statusCode = 401;
      res.end(JSON.stringify({ code: 'unauthenticated', message: 'Authentication is required' }));
      return;
    }
    const prefix = `/api/v1/stores/${storeId}/invoices`;
    if (req.method === 'POST' && req.url === prefix) {
      const id = randomBytes(11).toString('hex');
      const invoice = {
        id,
        checkoutLink: `https://btcpay.test/i/${id}`,
        status: 'New',
        ...body,
        amount: String(body.amount),
      };
      invoices.set(id, invoice);
      res.end(JSON.stringify(invoice));
      return;
    }
    const found =
      req.method === 'GET' && req.url?.startsWith(`${prefix}/`)
        ? invoices.get(req.url.slice(prefix.length + 1))
        : undefined;
    if (found) {
      res.end(JSON.stringify(found));
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ code: 'invoice-not-found', message: 'The invoice was not found' }));
  });
  const url = await listen(server);
  return { url, requests, invoices, close: closer(server) };
}
