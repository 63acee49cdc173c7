// An app's tests against the sandbox: signed in, an injected refusal, a rotated key.
//
//   cd examples/node && node --test
//
// One app and one sandbox for this file (starting one takes milliseconds); each test signs
// its own session in and resets only that session (`reset?sid=`) afterwards, so tests that
// run at once against this sandbox never see each other's faults.

import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';

import { startApp } from './app.mjs';
import { control, startSandbox } from './sandbox.mjs';

let app;
let sandbox;

before(async () => {
  app = await startApp(); // the app's port first: the sandbox's edge forwards to it
  sandbox = await startSandbox(app.url);
  app.configure(sandbox.env); // then the app gets the sandbox's environment
});

after(async () => {
  await sandbox?.stop();
  await app?.close();
});

async function signIn() {
  const session = await control(sandbox.control, 'POST', 'sessions', { person: 'ada' });
  assert.equal(session.status, 201, JSON.stringify(session.body));
  return { ...session.body, cookie: session.body.cookie.header };
}

async function regions(person) {
  const headers = {};
  if (person) headers.cookie = person.cookie;
  const answer = await fetch(`${sandbox.edge}/regions`, { headers });
  return [answer.status, await answer.text()];
}

describe('one signed-in session per test', () => {
  let person;
  beforeEach(async () => { person = await signIn(); });
  afterEach(async () => {
    const reset = await control(sandbox.control, 'POST', `reset?sid=${person.sid}`);
    assert.equal(reset.status, 200);
  });

  test('a signed-in person gets their data', async () => {
    assert.deepEqual(await regions(person), [200, '{"regions":5}']);
  });

  test('without a session the app sees nobody', async () => {
    assert.equal((await regions())[0], 401);
  });

  test('the app refuses an identity that does not check out', async () => {
    // Straight at the app, past the edge (the spec warns such paths exist).
    const [head, payload, signature] = person.identity.split('.');
    const forged = `${head}.${payload}.${signature.slice(0, -4)}AAAA`;
    const answer = await fetch(`${app.url}/regions`, { headers: { 'x-nnumbers-identity': forged } });
    assert.deepEqual([answer.status, await answer.text()], [401, 'not a person: bad signature']);
  });

  test('an unavailable QueryMesh asks the person to try again', async () => {
    const fault = await control(sandbox.control, 'POST', 'faults', {
      code: 'QUERYMESH_UNAVAILABLE', times: 1, scope: { sid: person.sid },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    assert.deepEqual(await regions(person), [503, 'try again in a moment']);
    assert.equal((await regions(person))[0], 200, 'the fault applied once');
  });

  test('a rotated key sends the app to the JWKS', async () => {
    const fetches = app.jwksFetches;
    const rotated = await control(sandbox.control, 'POST', 'keys/rotate', {});
    assert.equal(rotated.status, 200);
    assert.ok(!app.keys().has(rotated.body.current), 'not in the environment the app started with');
    assert.deepEqual(await regions(person), [200, '{"regions":5}']);
    assert.equal(app.jwksFetches, fetches + 1);
    assert.equal((await regions(person))[0], 200);
    assert.equal(app.jwksFetches, fetches + 1, 'the keys are kept, not fetched on every request');
  });
});

// Two tests at once against the one sandbox, each with its own session and a fault scoped
// to it: neither sees the other's.
describe('tests running at once', { concurrency: 2 }, () => {
  for (const [name, faulty] of [['with a fault', true], ['without one', false]]) {
    test(`a session ${name} sees only its own`, async () => {
      const person = await signIn();
      try {
        if (faulty) {
          const fault = await control(sandbox.control, 'POST', 'faults', {
            code: 'QUERYMESH_UNAVAILABLE', times: 1000, scope: { sid: person.sid },
          });
          assert.equal(fault.status, 201);
        }
        // One call at a time per test: the broker lets one person run 4 queries at once,
        // and both tests sign in as ada, so more in flight would be refused by that limit.
        const answers = [];
        for (let i = 0; i < 8; i += 1) answers.push(await regions(person));
        const expected = faulty ? 503 : 200;
        assert.deepEqual(answers.map(([status]) => status), Array(8).fill(expected));
      } finally {
        await control(sandbox.control, 'POST', `reset?sid=${person.sid}`);
      }
    });
  }
});
