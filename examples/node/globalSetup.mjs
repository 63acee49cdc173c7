// Jest's globalSetup: the app and the sandbox start once, before every test file, and the
// tests find the URLs in process.env (Jest's workers inherit the environment the setup left;
// globals set here reach only globalTeardown.mjs). With Jest:
//
//   // jest.config.mjs
//   export default { globalSetup: './globalSetup.mjs', globalTeardown: './globalTeardown.mjs' };
//
// and in a test: `fetch(`${process.env.ZERO_SANDBOX_CONTROL}/sessions`, …)`.
// globalSetup.test.mjs runs this module under node:test, so it is tested without Jest.

import { startApp } from './app.mjs';
import { startSandbox } from './sandbox.mjs';

export default async function globalSetup() {
  const app = await startApp(); // the app's port first: the sandbox's edge forwards to it
  const sandbox = await startSandbox(app.url);
  app.configure(sandbox.env); // then the app gets the sandbox's environment
  globalThis.__ZERO_SANDBOX__ = { app, sandbox };
  process.env.ZERO_SANDBOX_EDGE = sandbox.edge;
  process.env.ZERO_SANDBOX_CONTROL = sandbox.control;
  process.env.ZERO_SANDBOX_BROKER = sandbox.broker;
  process.env.ZERO_SANDBOX_APP = app.url;
}
