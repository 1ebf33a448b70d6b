// An example creator app (DESIGN §7 "Creator apps"): it asks a Starlight member for consent, takes the
// single-use code Starlight sends back, redeems it and shows the member's items in the app's collection.
// Node's own http and fetch, nothing to install. Run it beside `make start`: see README.md in this folder.
import { createServer } from 'node:http';

const STARLIGHT_URL = (process.env.STARLIGHT_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const APP_URL = (process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 4000}`).replace(/\/+$/, '');
const { STARLIGHT_API_KEY: apiKey, COLLECTION_ID: collectionId } = process.env;
if (!apiKey || !collectionId) {
  console.error('Set STARLIGHT_API_KEY (the creator key) and COLLECTION_ID (one of its collections).');
  process.exit(1);
}

/** Calls the Starlight API with the creator's key; throws the server's message on failure. */
async function starlight(path, body) {
  const res = await fetch(`${STARLIGHT_URL}/api/capp/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(json.message ?? `HTTP ${res.status}`);
  return json;
}

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title, body) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escapeHtml(title)}</title><body style="font-family:sans-serif;max-width:40rem;margin:2rem auto">` +
  `<h1>${escapeHtml(title)}</h1>${body}</body></html>`;

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', APP_URL);
  const send = (status, html, headers = {}) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(html);
  };
  try {
    if (url.pathname === '/') {
      return send(
        200,
        page('Orion Fleet Viewer', '<p><a href="/login">Sign in with Starlight</a> to show your ships.</p>'),
      );
    }
    if (url.pathname === '/login') {
      const asked = await starlight('createAuthRequest', {
        itemCollectionId: collectionId,
        redirectUrl: `${APP_URL}/callback`,
        cancelUrl: `${APP_URL}/cancelled`,
        customMessage: 'Orion Fleet Viewer would like to show your ships.',
      });
      return send(302, '', { location: asked.url });
    }
    if (url.pathname === '/callback') {
      const { userId, nickname } = await starlight('redeemCode', { code: url.searchParams.get('code') ?? '' });
      const { data } = await starlight('getUserItems', { userId, itemCollectionId: collectionId });
      const list = data.map((i) => `<li>${escapeHtml(i.name)}</li>`).join('') || '<li>No items yet.</li>';
      return send(200, page(`Welcome, ${nickname}`, `<p>Your items:</p><ul id="items">${list}</ul>`));
    }
    if (url.pathname === '/cancelled') return send(200, page('Cancelled', '<p>You did not sign in.</p>'));
    return send(404, page('Not found', ''));
  } catch (err) {
    return send(502, page('Starlight said no', `<p>${escapeHtml(err.message)}</p>`));
  }
});

server.listen(new URL(APP_URL).port || 80, () => console.log(`Example creator app on ${APP_URL}`));
