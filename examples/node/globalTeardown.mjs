// Jest's globalTeardown: stops what globalSetup.mjs started.

export default async function globalTeardown() {
  const started = globalThis.__ZERO_SANDBOX__;
  if (!started) return;
  delete globalThis.__ZERO_SANDBOX__;
  await started.sandbox.stop();
  await started.app.close();
}
