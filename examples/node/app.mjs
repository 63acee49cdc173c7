// The app under test: a tiny node:http app that does what the runtime protocol asks of an
// app in another language. It verifies the ES256 identity in X-NNumbers-Identity with
// node:crypto (a JWK imports directly), fetches {NNUMBERS_BROKER_URL}/v1/jwks when an unknown
// kid arrives, and asks the broker how many regions there are.
//
// GET /regions: 401 without a valid identity, 200 {"regions": n}, 503 "try again in a
// moment" when the broker answers QUERYMESH_UNAVAILABLE, 502 for any other refusal.

import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import { once } from 'node:events';

const CLOCK_TOLERANCE_S = 60; // the spec's check 5

class NotAPerson extends Error {}
class UnknownKid extends NotAPerson {}

function publicKeys(jwks) {
  const keys = new Map();
  for (const jwk of jwks.keys ?? []) {
    if (jwk.kty === 'EC' && jwk.crv === 'P-256' && jwk.kid) {
      keys.set(jwk.kid, createPublicKey({ key: jwk, format: 'jwk' }));
    }
  }
  return keys;
}

const fromB64url = (text) => Buffer.from(text, 'base64url');

/** The spec's five checks: the claims, or throws NotAPerson. */
export function verifyIdentity(token, keys, env, now) {
  const parts = token.split('.');
  if (parts.length !== 3) throw new NotAPerson('not a compact JWS');
  const [headerB64, payloadB64, signatureB64] = parts;
  let header;
  try {
    header = JSON.parse(fromB64url(headerB64));
  } catch {
    throw new NotAPerson('unreadable header');
  }
  if (header.alg !== 'ES256' || header.typ !== 'nn-identity+jwt') {
    throw new NotAPerson('not an ES256 nn-identity+jwt');
  }
  const key = keys.get(header.kid);
  if (!key) throw new UnknownKid('unknown kid');
  // JWS carries r || s (RFC 7518 section 3.4): 'ieee-p1363', not DER.
  const signed = verify(
    'sha256',
    Buffer.from(`${headerB64}.${payloadB64}`),
    { key, dsaEncoding: 'ieee-p1363' },
    fromB64url(signatureB64),
  );
  if (!signed) throw new NotAPerson('bad signature');
  let claims;
  try {
    claims = JSON.parse(fromB64url(payloadB64));
  } catch {
    throw new NotAPerson('unreadable claims');
  }
  if (claims.iss !== env.NNUMBERS_IDENTITY_ISSUER) throw new NotAPerson('another issuer');
  if (claims.aud !== env.NNUMBERS_APP_ID) throw new NotAPerson('another app');
  if (claims.org !== env.NNUMBERS_ORG_ID) throw new NotAPerson('another organization');
  if (!Number.isInteger(claims.nbf) || !Number.isInteger(claims.exp)) {
    throw new NotAPerson('no validity');
  }
  if (now + CLOCK_TOLERANCE_S < claims.nbf || now - CLOCK_TOLERANCE_S >= claims.exp) {
    throw new NotAPerson('expired or not yet valid');
  }
  return claims;
}

/** Binds first (the sandbox needs the app's URL); `configure(env)` once the sandbox is up. */
export async function startApp() {
  let env;
  let keys = new Map();
  const app = { url: '', jwksFetches: 0, keys: () => keys };

  async function verifyRefreshingKeys(token) {
    const now = Math.floor(Date.now() / 1000);
    try {
      return verifyIdentity(token, keys, env, now);
    } catch (error) {
      if (!(error instanceof UnknownKid)) throw error;
      // Check 1: an unknown kid sends the app to the broker's JWKS once; the keys are kept.
      const answer = await fetch(`${env.NNUMBERS_BROKER_URL}/v1/jwks`);
      if (!answer.ok) throw new NotAPerson(`the JWKS answered ${answer.status}`);
      keys = publicKeys(await answer.json());
      app.jwksFetches += 1;
      return verifyIdentity(token, keys, env, now);
    }
  }

  async function regions(identity) {
    if (!identity) return [401, 'sign in first'];
    try {
      await verifyRefreshingKeys(identity);
    } catch (why) {
      return [401, `not a person: ${why.message}`];
    }
    let answer;
    let body;
    try {
      answer = await fetch(`${env.NNUMBERS_BROKER_URL}/v1/querymesh/query`, {
        method: 'POST',
        headers: { 'x-nnumbers-identity': identity, 'content-type': 'application/json' },
        body: JSON.stringify({ sql: 'SELECT count(*) FROM tpch.tiny.region' }),
      });
      body = await answer.json().catch(() => ({}));
    } catch {
      return [502, 'the broker did not answer'];
    }
    if (answer.status === 200) return [200, JSON.stringify({ regions: body.rows?.[0]?.[0] })];
    if (answer.status === 503 && body.code === 'QUERYMESH_UNAVAILABLE') {
      return [503, 'try again in a moment'];
    }
    return [502, `the broker refused: ${body.code ?? '?'}`];
  }

  const server = createServer((request, response) => {
    const work = request.url === '/regions'
      ? regions(request.headers['x-nnumbers-identity'])
      : Promise.resolve([404, 'no such page']);
    work.then(([status, text]) => response.writeHead(status).end(text));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  app.url = `http://127.0.0.1:${server.address().port}`;
  app.configure = (sandboxEnv) => {
    env = sandboxEnv;
    keys = publicKeys(JSON.parse(env.NNUMBERS_IDENTITY_JWKS));
  };
  app.close = async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  };
  return app;
}
