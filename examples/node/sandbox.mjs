// Starting zero-sandbox from a Node test: ephemeral ports, the ready line, a stop.
//
// The binary is $ZERO_SANDBOX, else target/debug/zero-sandbox of this repository, else
// target/release/zero-sandbox (`findBinary`).

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const READY_DEADLINE_MS = 30_000;

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * $ZERO_SANDBOX, else the debug build, else the release build of the repository at `repo`;
 * an error saying what to build when there is none.
 */
export function findBinary(env = process.env, repo = REPO) {
  if (env.ZERO_SANDBOX) return env.ZERO_SANDBOX;
  const builds = ['debug', 'release'].map((profile) => `${repo.replace(/\/$/, '')}/target/${profile}/zero-sandbox`);
  const found = builds.find((path) => statSync(path, { throwIfNoEntry: false })?.isFile());
  if (found) return found;
  throw new Error(
    `no zero-sandbox binary at ${builds.join(' or ')}: run \`cargo build\` (or \`cargo build --release\`) ` +
      'in the repository, or set ZERO_SANDBOX to the binary',
  );
}

/** Starts the sandbox in front of `appUrl`: { edge, control, env, …, stop() }. */
export async function startSandbox(appUrl) {
  const child = spawn(
    findBinary(),
    ['up', '--ready-json', '--ephemeral', '--no-open', '--app', appUrl,
      '--edge-port', '0', '--broker-port', '0', '--iam-port', '0', '--querymesh-port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (chunk) => { log = (log + chunk).slice(-4000); });
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, 'exit');
  let timer;
  try {
    const ready = await Promise.race([
      once(lines, 'line').then(([line]) => JSON.parse(line)),
      once(child, 'error').then(([error]) => { throw error; }),
      exited.then(([code]) => { throw new Error(`zero-sandbox exited (${code}): ${log}`); }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`zero-sandbox not ready: ${log}`)), READY_DEADLINE_MS);
      }),
    ]);
    if (ready.event !== 'ready') throw new Error(`not a ready line: ${JSON.stringify(ready)}`);
    return {
      ...ready,
      // SIGTERM: the sandbox stops within a second.
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          await exited;
        }
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** One call to the test-control API: { status, body }. */
export async function control(controlUrl, method, path, body) {
  const answer = await fetch(`${controlUrl}/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.status, body: await answer.json() };
}
