// Two tiny apps for `zero-sandbox check` (tests/sandbox/cli/check.rs), from the NNUMBERS_*
// environment only, as any app is:
//   node identity_app.mjs careless  — decodes X-NNumbers-Identity's payload without verifying it
//   node identity_app.mjs correct   — the runtime protocol's five checks: the ES256 signature
//                                     with NNUMBERS_IDENTITY_JWKS (by kid), iss, aud, org,
//                                     nbf and exp with 60 s of tolerance
// Both answer `GET /` with who signed in (200), `GET /health` with "ok" whoever asks, and
// `GET /query` with the broker's answer to a query made with the request's identity (none
// without one; refused first when their check fails, as on `/`), passed on as it came. They
// listen on 127.0.0.1 at $PORT or a free port, and print `listening <port>` once they accept.
import { createServer } from 'node:http';
import { createPublicKey, verify } from 'node:crypto';

const mode = process.argv[2];
if (mode !== 'careless' && mode !== 'correct') {
  console.error('usage: node identity_app.mjs careless|correct');
  process.exit(64);
}
const env = process.env;
const keys = new Map(
  JSON.parse(env.NNUMBERS_IDENTITY_JWKS).keys.map((jwk) => [jwk.kid, createPublicKey({ key: jwk, format: 'jwk' })]),
);
const TOLERANCE = 60;

const segment = (text) => Buffer.from(text, 'base64url');
const json = (text) => JSON.parse(segment(text).toString('utf8'));

// The careless way: whatever the payload says. Never do this.
function careless(token) {
  return json(token.split('.')[1]);
}

// The protocol's checks; null when any fails.
function checked(token) {
  try {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [h, p, s] = parts;
    const header = json(h);
    if (header.alg !== 'ES256') return null;
    const key = keys.get(header.kid);
    if (!key) return null;
    const signature = segment(s);
    if (!verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, signature)) return null;
    const claims = json(p);
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== env.NNUMBERS_IDENTITY_ISSUER) return null;
    if (claims.aud !== env.NNUMBERS_APP_ID) return null;
    if (claims.org !== env.NNUMBERS_ORG_ID) return null;
    if (!(claims.nbf <= now + TOLERANCE && now < claims.exp + TOLERANCE)) return null;
    return claims;
  } catch {
    return null;
  }
}

// The broker's answer to `SELECT 1` with `token` as X-NNumbers-Identity, passed on.
async function query(token, res) {
  const headers = { 'content-type': 'application/json' };
  if (token !== undefined) headers['x-nnumbers-identity'] = token;
  try {
    const answer = await fetch(`${env.NNUMBERS_BROKER_URL}/v1/querymesh/query`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ sql: 'SELECT 1 AS one' }),
    });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(await answer.text());
  } catch (e) {
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: `the broker did not answer: ${e.message}` }));
  }
}

const server = createServer((req, res) => {
  if (req.url === '/health') {
    res.end('ok');
    return;
  }
  const token = req.headers['x-nnumbers-identity'];
  const send = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (token === undefined) {
    if (req.url === '/query') query(undefined, res);
    else send(200, { signed_in: false });
    return;
  }
  let person;
  try {
    person = mode === 'careless' ? careless(token) : checked(token);
  } catch {
    person = null;
  }
  if (!person) {
    send(401, { code: 'IDENTITY_ASSERTION_INVALID', message: 'the identity does not check out' });
    return;
  }
  if (req.url === '/query') {
    query(token, res);
    return;
  }
  send(200, { signed_in: true, sub: person.sub, name: person.name, seen_at: Date.now() });
});
server.listen(Number(env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
