// The app `zero-sandbox run` starts in tests/sandbox/cli/run.rs:
//   node run_app.mjs ENV_FILE [ignore-term]
// writes PORT and the NNUMBERS_* variables it was given to ENV_FILE as JSON, writes a partial
// line to stderr, then answers `GET /` on 127.0.0.1:$PORT, writing a partial line and then
// its end with a non-UTF-8 byte to stdout as it does. On SIGTERM it says so and exits 0, unless told to ignore SIGTERM; SIGINT
// keeps Node's default (death by the signal).
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';

const [envFile, behaviour] = process.argv.slice(2);
const given = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => k === 'PORT' || k.startsWith('NNUMBERS_')),
);
writeFileSync(envFile, JSON.stringify(given));
process.stderr.write('to stderr\n');

const server = createServer((req, res) => {
  process.stdout.write('partial');
  setImmediate(() => process.stdout.write(Buffer.from([0xff, 0x0a])));
  res.end('hello from the app');
});
process.on('SIGTERM', () => {
  if (behaviour === 'ignore-term') {
    console.log('ignoring SIGTERM');
    return;
  }
  console.log('got SIGTERM');
  server.close();
  process.exit(0);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
