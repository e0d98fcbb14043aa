/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

declare module "@remix-run/node" {
  interface AppLoadContext {
    nonce?: string;
    clientIp?: string;
  }
}
declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext {
    nonce?: string;
    clientIp?: string;
  }
}
export {};
