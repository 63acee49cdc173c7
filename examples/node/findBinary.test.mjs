// Where the recipe finds the binary: $ZERO_SANDBOX, the debug build, the release build, or an
// error that says to build it (not "spawn …/target/debug/zero-sandbox ENOENT").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { findBinary } from './sandbox.mjs';

function build(repo, profile) {
  const path = join(repo, 'target', profile, 'zero-sandbox');
  mkdirSync(join(repo, 'target', profile), { recursive: true });
  writeFileSync(path, '');
  return path;
}

test('the release build when there is no debug build', (t) => {
  const repo = mkdtempSync(join(tmpdir(), 'zs-'));
  t.after(() => rmSync(repo, { recursive: true }));
  const release = build(repo, 'release');
  assert.equal(findBinary({}, repo), release);
  const debug = build(repo, 'debug');
  assert.equal(findBinary({}, repo), debug, 'the debug build first, as `cargo build` makes it');
  assert.equal(findBinary({ ZERO_SANDBOX: '/opt/zs' }, repo), '/opt/zs');
});

test('no build is an error that says to build', (t) => {
  const repo = mkdtempSync(join(tmpdir(), 'zs-'));
  t.after(() => rmSync(repo, { recursive: true }));
  assert.throws(() => findBinary({}, repo), /run `cargo build`/);
});
