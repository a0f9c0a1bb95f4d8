// `receipt verify` as WebAssembly (issue 36): an ES module with no dependencies that loads
// receipt.wasm (Scripts/wasm builds it into .build/wasm/) and is also a command line:
//
//   node Wasm/receipt.mjs verify FILE [--root CERT]... [--policy appstore|xcode]
//       [--at receipt|now|RFC3339] [--bundle-id ID] [--app-version V] [--device-guid HEX] [--json]
//
// prints what the native `receipt verify` prints with the same arguments and exits with the same
// status (0 valid, 1 not valid, 2 malformed, 64 usage). FILE is an App Store receipt (DER, BER,
// base64 or PEM), an iOS 6 transaction receipt or a StoreKit 2 token; `-` is standard input.
// RECEIPT_WASM names another receipt.wasm.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/// The default location of receipt.wasm: .build/wasm/ beside this folder (Node; elsewhere,
/// such as a Cloudflare Worker, pass the WebAssembly.Module to `ReceiptModule.load`).
const defaultWasmURL = () => new URL('../.build/wasm/receipt.wasm', import.meta.url);

/// An instantiated module: `run(arguments, files, nowMilliseconds)` runs `receipt verify`.
export class ReceiptModule {
  constructor(instance, message = []) {
    this.exports = instance.exports;
    this.message = message;
    const seed = new Uint32Array(2);
    globalThis.crypto.getRandomValues(seed);
    this.exports.receipt_seed(seed[0], seed[1]);
  }

  /// Compiles and instantiates `source`: a WebAssembly.Module, the bytes of receipt.wasm, or
  /// (in Node) a file URL or path; by default .build/wasm/receipt.wasm.
  static async load(source = defaultWasmURL()) {
    let module = source;
    if (!(source instanceof WebAssembly.Module)) {
      let bytes = source;
      if (typeof source === 'string' || source instanceof URL) {
        const { readFile } = await import('node:fs/promises');
        bytes = await readFile(source);
      }
      module = await WebAssembly.compile(bytes);
    }
    let memory;
    const message = [];
    const imports = {
      receipt: {
        // A fatal error's message, a byte at a time, before the module traps.
        putchar: (character) => {
          message.push(character & 0xff);
        },
        // Pages added, returning the previous size in pages (-1 when memory cannot grow).
        grow_memory: (pages) => {
          try {
            return memory.grow(pages);
          } catch {
            return -1;
          }
        },
      },
    };
    const instance = await WebAssembly.instantiate(module, imports);
    memory = instance.exports.memory;
    return new ReceiptModule(instance, message);
  }

  /// The module `verify` uses by default: loaded once from .build/wasm/receipt.wasm, and loaded
  /// again when the one it had trapped.
  static async shared() {
    if (shared && (await shared).trapped) shared = undefined;
    shared ??= ReceiptModule.load();
    return shared;
  }

  /// Runs `receipt verify` with `args` (the arguments after `verify`); `files` maps each name the
  /// arguments give (FILE, each --root) to its bytes (a Uint8Array) or to `{ unreadable: reason }`.
  /// Returns `{ stdout, stderr, status }`.
  run(args, files = new Map(), nowMilliseconds = Date.now()) {
    if (this.trapped) throw new Error('receipt.wasm: this instance trapped earlier; load another (ReceiptModule.load)');
    const parts = [u32(args.length)];
    for (const argument of args) parts.push(...chunk(encoder.encode(argument)));
    const entries = files instanceof Map ? [...files] : Object.entries(files);
    parts.push(u32(entries.length));
    for (const [name, contents] of entries) {
      parts.push(...chunk(encoder.encode(name)));
      if (contents instanceof Uint8Array) {
        parts.push(u32(0), ...chunk(contents));
      } else {
        parts.push(u32(1), ...chunk(encoder.encode(contents.unreadable)));
      }
    }
    const length = parts.reduce((sum, part) => sum + part.length, 0);
    const { receipt_allocate, receipt_release, receipt_verify, memory } = this.exports;
    const request = receipt_allocate(length);
    if (request === 0) throw new Error('receipt.wasm: out of memory');
    let offset = request;
    for (const part of parts) {
      new Uint8Array(memory.buffer, offset, part.length).set(part);
      offset += part.length;
    }
    let response;
    try {
      response = receipt_verify(request, length, BigInt(Math.floor(nowMilliseconds)));
    } catch (error) {
      // A trap leaves the instance unusable (its memory and stack as the trap left them):
      // `trapped` says so, and `ReceiptModule.shared` and `verify` load another.
      this.trapped = true;
      const text = decoder.decode(new Uint8Array(this.message.splice(0)));
      throw new Error(`receipt.wasm trapped: ${text.trim() || error.message}`, { cause: error });
    }
    receipt_release(request);
    if (response === 0) throw new Error('receipt.wasm: out of memory');
    const view = new DataView(memory.buffer);
    const status = view.getUint32(response, true);
    const stdoutLength = view.getUint32(response + 4, true);
    const stdout = decoder.decode(new Uint8Array(memory.buffer, response + 8, stdoutLength));
    const stderrLength = view.getUint32(response + 8 + stdoutLength, true);
    const stderr = decoder.decode(new Uint8Array(memory.buffer, response + 12 + stdoutLength, stderrLength));
    receipt_release(response);
    return { stdout, stderr, status };
  }
}

function u32(value) {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value, true);
  return bytes;
}

function chunk(bytes) {
  return [u32(bytes.length), bytes];
}

let shared;

/// Verifies `bytes` (an App Store receipt, an iOS 6 transaction receipt or a StoreKit 2 token,
/// as a Uint8Array or a string) as `receipt verify` does. Options: `roots` (certificates'
/// bytes replacing the policy's anchors), `policy` ('appstore' or 'xcode'), `at` ('receipt',
/// 'now' or an RFC 3339 date), `bundleId`, `appVersion`, `deviceGuid`, `json` (true: stdout is
/// verifyReceipt's JSON), `now` (milliseconds since 1970 for `at: 'now'`), `module` (a
/// ReceiptModule; by default `ReceiptModule.shared()`).
/// Returns `{ valid, status, stdout, stderr }`: `valid` when the status is 0.
export async function verify(bytes, options = {}) {
  const module = options.module ?? (await ReceiptModule.shared());
  const input = typeof bytes === 'string' ? encoder.encode(bytes) : new Uint8Array(bytes);
  const files = new Map([['input', input]]);
  const args = ['input'];
  (options.roots ?? []).forEach((root, index) => {
    const name = `root-${index + 1}`;
    files.set(name, typeof root === 'string' ? encoder.encode(root) : new Uint8Array(root));
    args.push('--root', name);
  });
  const valued = { policy: '--policy', at: '--at', bundleId: '--bundle-id', appVersion: '--app-version', deviceGuid: '--device-guid' };
  for (const [key, name] of Object.entries(valued)) {
    if (options[key] !== undefined) args.push(name, String(options[key]));
  }
  if (options.json) args.push('--json');
  const result = module.run(args, files, options.now ?? Date.now());
  return { valid: result.status === 0, ...result };
}

/// The command line: reads every argument that is not an option name as a file, if it is one
/// (the command asks only for FILE and the --root values).
async function main(argv) {
  const fs = await import('node:fs');
  const process = (await import('node:process')).default;
  const [command, ...args] = argv;
  if (command !== 'verify') {
    process.stderr.write('usage: node receipt.mjs verify FILE [--root CERT]... [--policy appstore|xcode] [--at receipt|now|RFC3339] [--bundle-id ID] [--json]\n');
    return 64;
  }
  const files = new Map();
  for (const argument of args) {
    if (argument.startsWith('--') || files.has(argument)) continue;
    files.set(argument, readHostFile(fs, argument));
  }
  const module = await ReceiptModule.load(process.env.RECEIPT_WASM ?? defaultWasmURL());
  const result = module.run(args, files, Date.now());
  await write(process.stdout, result.stdout);
  await write(process.stderr, result.stderr);
  return result.status;
}

/// A file's bytes, or why it cannot be read in the native tool's words.
function readHostFile(fs, path) {
  try {
    return new Uint8Array(fs.readFileSync(path === '-' ? 0 : path));
  } catch (error) {
    switch (error.code) {
      case 'ENOENT': case 'ENOTDIR': return { unreadable: 'no such file' };
      case 'EISDIR': return { unreadable: 'it is a directory' };
      case 'EACCES': case 'EPERM': return { unreadable: 'permission denied' };
      default: return { unreadable: 'the read failed' };
    }
  }
}

function write(stream, text) {
  return text === '' ? Promise.resolve() : new Promise((resolve) => stream.write(text, resolve));
}

if (typeof process !== 'undefined' && process.argv?.[1]) {
  const { fileURLToPath } = await import('node:url');
  const { realpathSync } = await import('node:fs');
  if (realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
    process.exitCode = await main(process.argv.slice(2));
  }
}
