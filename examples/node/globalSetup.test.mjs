// Jest's globalSetup/globalTeardown run here under node:test, in the order Jest runs them.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import globalSetup from './globalSetup.mjs';
import globalTeardown from './globalTeardown.mjs';
import { control } from './sandbox.mjs';

test('globalSetup hands the URLs to tests through process.env; globalTeardown stops it', async () => {
  await globalSetup();
  let edge;
  try {
    // What a Jest test file sees: only the environment.
    const { ZERO_SANDBOX_CONTROL: controlUrl, ZERO_SANDBOX_EDGE } = process.env;
    edge = ZERO_SANDBOX_EDGE;
    assert.match(edge, /^http:\/\/127\.0\.0\.1:\d+$/);
    const session = await control(controlUrl, 'POST', 'sessions', { person: 'ada' });
    assert.equal(session.status, 201);
    const answer = await fetch(`${edge}/regions`, {
      headers: { cookie: session.body.cookie.header },
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { regions: 5 });
  } finally {
    await globalTeardown();
  }
  await assert.rejects(fetch(`${edge}/regions`), 'the sandbox stopped');
});
