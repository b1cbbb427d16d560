import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';

/**
 * The real @zoomus/websdk 1.9.1 bundle's own signature building blocks, loaded in Node as the
 * oracle for src/v2-contract/sdk-signature.ts. The bundle is a webpack UMD file that needs a browser to run
 * to the end; we only need three of its modules, so we run it in a vm context with a tiny patch
 * that hands out webpack's module loader before the entry module starts (the entry then fails on
 * the missing browser, which does not matter). The module ids are those `generateSignature`
 * itself imports in this exact build: 299 js-base64, 1104 crypto-js/hmac-sha256,
 * 1105 crypto-js/enc-base64.
 */
export interface BundleSignatureModules {
  Base64: { encode(text: string): string; encodeURI(text: string): string };
  hmacSha256(message: string, key: string): unknown;
  encBase64: { stringify(wordArray: unknown): string };
}

const LOADER_HOOK = 'return t.m=e,t.c=n,';

export function loadBundleSignatureModules(): BundleSignatureModules {
  const require = createRequire(import.meta.url);
  const bundlePath = require.resolve('@zoomus/websdk/dist/zoomus-websdk.umd.min.js');
  const source = readFileSync(bundlePath, 'utf8');
  if (!source.startsWith('// [Zoom Meeting Web Client WebSDK]  1.9.1_20210309') || !source.includes(LOADER_HOOK)) {
    throw new Error('not the @zoomus/websdk 1.9.1 build this oracle was written for');
  }
  // The first loader is the main bundle's (the later ones belong to inlined worker sources).
  const patched = source.replace(LOADER_HOOK, 'return globalThis.__webpackRequire=t,t.m=e,t.c=n,');
  const context: Record<string, unknown> = { console: { log() {}, warn() {}, error() {} } };
  context.window = context;
  context.self = context;
  context.globalThis = context;
  vm.createContext(context);
  // The UMD wrapper asks for its externals (react, lodash, ...) through `window`: undefined is fine
  // for the three modules we take.
  try {
    vm.runInContext(patched, context, { filename: bundlePath });
  } catch {
    // Expected: the entry module needs a real browser. The loader was captured before that.
  }
  const webpackRequire = context.__webpackRequire as ((id: number) => any) | undefined;
  if (!webpackRequire) throw new Error('could not reach the bundle’s module loader');
  const hmacModule = webpackRequire(1104);
  return {
    Base64: webpackRequire(299).Base64,
    hmacSha256: hmacModule.default ?? hmacModule,
    encBase64: webpackRequire(1105),
  };
}

/** The bundle's `generateSignature` body, step for step, with `ts` fixed instead of `Date.now() − 30 s`. */
export function bundleSignature(
  modules: BundleSignatureModules,
  input: { apiKey: string; apiSecret: string; meetingNumber: string; role: number },
  ts: number,
): string {
  const msg = modules.Base64.encode(input.apiKey + input.meetingNumber + ts + input.role);
  const hash = modules.hmacSha256(msg, input.apiSecret);
  return modules.Base64.encodeURI(`${input.apiKey}.${input.meetingNumber}.${ts}.${input.role}.${modules.encBase64.stringify(hash)}`);
}
