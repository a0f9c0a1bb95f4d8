// A Cloudflare-Worker-shaped verifier: POST the bytes of an App Store receipt (DER or base64),
// an iOS 6 transaction receipt or a StoreKit 2 token; the answer is `receipt verify --json`'s
// JSON, 200 when valid, 422 when not. In a Worker, bind receipt.wasm as RECEIPT_WASM (wrangler:
// `[wasm_modules] RECEIPT_WASM = "receipt.wasm"`); Wasm/test-fixtures.mjs runs it in Node.
import { ReceiptModule, verify } from '../receipt.mjs';

let loaded;

export default {
  async fetch(request, env) {
    if (request.method !== 'POST') return new Response('POST a receipt or a token\n', { status: 405 });
    if (loaded && (await loaded).trapped) loaded = undefined;   // a trapped instance is not reused
    loaded ??= ReceiptModule.load(env.RECEIPT_WASM);
    const bundleId = new URL(request.url).searchParams.get('bundle_id') ?? undefined;
    const bytes = new Uint8Array(await request.arrayBuffer());
    const result = await verify(bytes, { module: await loaded, json: true, bundleId });
    return new Response(result.stdout, {
      status: result.valid ? 200 : 422,
      headers: { 'content-type': 'application/json' },
    });
  },
};
