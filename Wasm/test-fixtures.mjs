// Compares `node Wasm/receipt.mjs verify` with the native `receipt verify` on every shared
// fixture (App Store receipts, the iOS 6 transaction receipt, StoreKit 2 tokens) and on
// byte-flipped copies of each: standard output, standard error and exit status must be equal
// byte for byte. Then runs Wasm/examples/worker.mjs (a Cloudflare-Worker-shaped fetch handler)
// with Node's Request, and checks that README.md's example is that worker. Exit status 1 on any
// difference.
//
//   node Wasm/test-fixtures.mjs RECEIPT_BINARY [FIXTURES]
//
// FIXTURES defaults to ../shared/fixtures beside the project. Under CI=true a missing fixture
// fails; otherwise the test is skipped (exit 0) when the fixtures are absent. The unchanged
// fixtures run through the command line (one node process each); the flipped copies (FLIPS per
// fixture, default 12) through the module's `run` in this process, the function the command
// line calls, so that the run takes seconds, not minutes. RECEIPT_WASM names another .wasm.
// EXTRA names a folder of more inputs (real receipts and tokens kept outside the fixtures): each
// of its files is compared as it is and flipped, with no arguments.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ReceiptModule, verify } from './receipt.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [native, fixturesArgument] = process.argv.slice(2);
if (!native) {
  console.error('usage: node Wasm/test-fixtures.mjs RECEIPT_BINARY [FIXTURES]');
  process.exit(64);
}
const fixtures = fixturesArgument ?? join(here, '..', '..', 'shared', 'fixtures');
const flips = Number(process.env.FLIPS ?? 12);
const ci = process.env.CI === 'true';

// Every fixture and the arguments it is verified with (each also with --json).
const receipts = `${fixtures}/receipts`, certs = `${fixtures}/certs`, jws = `${fixtures}/jws`;
const cases = [
  [`${receipts}/production.der`, []],
  [`${receipts}/production.der`, ['--root', `${certs}/AppleIncRootCertificate.cer`, '--bundle-id', 'org.getpure.pure-iphone']],
  [`${receipts}/production.der`, ['--bundle-id', 'com.example.other']],
  [`${receipts}/production.der`, ['--at', '2030-01-01T00:00:00Z']],
  [`${receipts}/production.der`, ['--policy', 'xcode']],
  [`${receipts}/sandbox-g5.der`, []],
  [`${receipts}/sandbox-legacy.der`, []],
  [`${receipts}/xcode.der`, []],
  [`${receipts}/xcode.der`, ['--policy', 'xcode']],
  [`${receipts}/xcode.der`, ['--policy', 'xcode', '--root', `${certs}/StoreKitTestCertificate.cer`]],
  [`${receipts}/xcode-with-purchases.der`, ['--policy', 'xcode', '--root', `${certs}/StoreKitTestCertificate.cer`]],
  [`${fixtures}/ios6/iap-node-sandbox-v2.txt`, []],
  [`${jws}/apple-real-test-notification.jws`, []],
  [`${jws}/apple-real-test-notification.jws`, ['--root', `${certs}/AppleRootCA-G3.cer`]],
  [`${jws}/xcode-signed-transaction.jws`, ['--policy', 'xcode']],
  [`${jws}/xcode-signed-renewal-info.jws`, ['--policy', 'xcode']],
  [`${jws}/xcode-signed-app-transaction.jws`, ['--policy', 'xcode']],
  [`${jws}/xcode-signed-app-transaction.jws`, []],
  [`${jws}/testca-transaction-info.jws`, []],
  [`${jws}/testca-renewal-info.jws`, []],
  [`${jws}/testca-test-notification.jws`, []],
  // Usage errors and unreadable files.
  [`${receipts}/production.der`, ['--policy', 'nope']],
  [`${receipts}/production.der`, ['--frobnicate']],
  [`${receipts}/production.der`, ['--at', 'yesterday']],
  [`${receipts}/production.der`, ['--root', `${fixtures}/no-such-file.cer`]],
  [`${fixtures}/no-such-receipt.der`, []],
  [receipts, []],
  [`${certs}/AppleIncRootCertificate.cer`, []],
];
const extra = process.env.EXTRA;
if (extra) {
  for (const name of readdirSync(extra).sort()) cases.push([join(extra, name), []]);
}

const missing = [...new Set(cases.map(([file]) => file))].filter(
  (file) => !file.includes('no-such') && file !== receipts && !existsSync(file));
if (missing.length > 0) {
  console.error(`missing fixtures:\n  ${missing.join('\n  ')}`);
  if (ci) process.exit(1);
  console.log('Wasm/test-fixtures: skipped (no fixtures)');
  process.exit(0);
}

let compared = 0;
const differences = [];

function compare(label, expected, actual) {
  compared += 1;
  for (const key of ['status', 'stdout', 'stderr']) {
    if (expected[key] !== actual[key]) {
      differences.push(`${label}: ${key} differs\n  native: ${JSON.stringify(expected[key]).slice(0, 400)}\n  wasm:   ${JSON.stringify(actual[key]).slice(0, 400)}`);
      return;
    }
  }
}

function runNative(args) {
  const result = spawnSync(native, ['verify', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// 1. The command line on the fixtures as they are.
for (const [file, args] of cases) {
  for (const variant of [[], ['--json']]) {
    const all = [file, ...args, ...variant];
    const cli = spawnSync(process.execPath, [join(here, 'receipt.mjs'), 'verify', ...all], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const label = `verify ${all.join(' ').replaceAll(fixtures + '/', '')}`;
    compare(label, runNative(all), { status: cli.status, stdout: cli.stdout, stderr: cli.stderr });
  }
}
const cliCount = compared;

// 2. Byte-flipped copies: FLIPS positions spread over each file, alternately XOR 0x01 (a
// base64 character mostly stays one) and XOR 0xFF.
const scratch = mkdtempSync(join(tmpdir(), 'receipt-wasm-'));
const wasmPath = process.env.RECEIPT_WASM ?? join(here, '..', '.build', 'wasm', 'receipt.wasm');
let module = await ReceiptModule.load(wasmPath);
const flipped = new Map();
for (const [file, args] of cases) {
  if (!existsSync(file) || file === receipts || file.endsWith('.cer') || args.some((a) => a.startsWith('--f') || a === 'nope' || a === 'yesterday' || a.includes('no-such')) || flipped.has(file + args.join(' '))) continue;
  flipped.set(file + args.join(' '), true);
  const original = new Uint8Array(readFileSync(file));
  for (let index = 0; index < flips; index += 1) {
    const position = Math.floor(((index + 0.5) * original.length) / flips);
    const bytes = original.slice();
    bytes[position] ^= index % 2 === 0 ? 0x01 : 0xff;
    const path = join(scratch, `flipped-${position}`);
    writeFileSync(path, bytes);
    const files = new Map([[path, bytes]]);
    for (let i = 0; i < args.length; i += 1) {
      if (args[i] === '--root') files.set(args[i + 1], new Uint8Array(readFileSync(args[i + 1])));
    }
    for (const variant of [[], ['--json']]) {
      const all = [path, ...args, ...variant];
      const label = `verify ${file.replace(fixtures + '/', '')} flipped at ${position} ${[...args, ...variant].join(' ')}`;
      let actual;
      try {
        actual = module.run(all, files, Date.now());
      } catch (error) {
        actual = { status: 'trap', stdout: '', stderr: String(error.message) };
        module = await ReceiptModule.load(wasmPath);
      }
      compare(label, runNative(all), actual);
    }
  }
}
rmSync(scratch, { recursive: true, force: true });

// 3. The worker example.
const worker = (await import('./examples/worker.mjs')).default;
const env = { RECEIPT_WASM: await WebAssembly.compile(readFileSync(wasmPath)) };
for (const [file, query] of [[`${receipts}/production.der`, '?bundle_id=org.getpure.pure-iphone'], [`${jws}/apple-real-test-notification.jws`, '']]) {
  const body = readFileSync(file);
  const response = await worker.fetch(new Request(`https://receipts.example/verify${query}`, { method: 'POST', body }), env);
  const args = [file, '--json', ...(query ? ['--bundle-id', 'org.getpure.pure-iphone'] : [])];
  const expected = runNative(args);
  compare(`worker POST ${file.replace(fixtures + '/', '')}${query}`, { status: 200, stdout: expected.stdout, stderr: '' },
    { status: response.status, stdout: await response.text(), stderr: '' });
}
{
  const body = readFileSync(`${receipts}/production.der`);
  body[body.length >> 1] ^= 0xff;
  const response = await worker.fetch(new Request('https://receipts.example/verify', { method: 'POST', body }), env);
  compared += 1;
  if (response.status === 200) differences.push('worker: a flipped receipt was answered 200');
}

// 4. A trapped instance is never used again. The trap is a real one: the module's own
// receipt_verify handed a request beyond its memory.
{
  const module = await ReceiptModule.load(readFileSync(wasmPath));
  const exports = module.exports;
  module.exports = { ...exports, receipt_verify: (_, length, now) => exports.receipt_verify(0xfffffff0, length, now) };
  const outcome = (call) => { try { call(); return 'answered'; } catch (error) { return error.message; } };
  const first = outcome(() => module.run(['input'], new Map([['input', new Uint8Array([0x30, 0x00])]])));
  module.exports = exports;
  const second = outcome(() => module.run(['input'], new Map([['input', new Uint8Array([0x30, 0x00])]])));
  compared += 2;
  if (!first.startsWith('receipt.wasm trapped:') || !module.trapped) differences.push(`trap: not reported (${first})`);
  if (!second.includes('trapped earlier')) differences.push(`trap: the trapped instance ran again (${second})`);
}
{
  const before = await ReceiptModule.shared();
  before.trapped = true;   // as run sets it on a trap (above)
  const after = await ReceiptModule.shared();
  const answer = await verify(readFileSync(`${receipts}/production.der`), { json: true });
  compared += 1;
  if (after === before || after.trapped || answer.status !== runNative([`${receipts}/production.der`, '--json']).status) {
    differences.push('trap: ReceiptModule.shared() kept the trapped instance');
  }
}

// The README's example is the worker that ran.
{
  const readme = readFileSync(join(here, '..', 'README.md'), 'utf8');
  const block = readme.match(/```js\n(import \{ ReceiptModule[\s\S]*?)```/)?.[1];
  const source = readFileSync(join(here, 'examples', 'worker.mjs'), 'utf8');
  compared += 1;
  if (!block || !source.endsWith(block)) differences.push("README.md's JavaScript example is not the end of Wasm/examples/worker.mjs");
}

for (const difference of differences) console.log(`DIFF ${difference}`);
console.log(`Wasm/test-fixtures: ${compared} comparisons (${cliCount} through the command line), ${differences.length} differences`);
process.exit(differences.length === 0 ? 0 : 1);
