// Times receipt.wasm under Node: cold (compile, instantiate and the first `receipt verify`) and
// warm (later calls on the same instance, the median of RUNS, default 200), for the production
// receipt and the Apple-signed StoreKit 2 notification of the shared fixtures.
//
//   node Wasm/bench.mjs [FIXTURES]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ReceiptModule } from './receipt.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = process.argv[2] ?? join(here, '..', '..', 'shared', 'fixtures');
const runs = Number(process.env.RUNS ?? 200);
const wasm = readFileSync(process.env.RECEIPT_WASM ?? join(here, '..', '.build', 'wasm', 'receipt.wasm'));

for (const [name, file] of [['receipt production.der', 'receipts/production.der'], ['token apple-real-test-notification.jws', 'jws/apple-real-test-notification.jws']]) {
  const files = new Map([['input', new Uint8Array(readFileSync(join(fixtures, file)))]]);
  const start = performance.now();
  const module = await ReceiptModule.load(await WebAssembly.compile(wasm));
  const loaded = performance.now();
  const first = module.run(['input'], files);
  const cold = performance.now();
  if (first.status !== 0) throw new Error(`${name}: ${first.stderr}`);
  const times = [];
  for (let index = 0; index < runs; index += 1) {
    const t0 = performance.now();
    module.run(['input'], files);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const ms = (value) => value.toFixed(3);
  console.log(`${name}: cold ${ms(cold - start)} ms (compile+instantiate ${ms(loaded - start)} ms, first verify ${ms(cold - loaded)} ms); warm median ${ms(times[runs >> 1])} ms, p90 ${ms(times[Math.floor(runs * 0.9)])} ms over ${runs} runs; memory ${module.exports.memory.buffer.byteLength / 65536} pages`);
}
