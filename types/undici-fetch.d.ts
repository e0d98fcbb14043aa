// undici's fetch classes from their own files (server/fetch-globals.ts, decision 048): the
// package's index loads every dispatcher, the mocks and the caches; these are the web classes
// alone. Typed as the DOM classes they install as globals (undici's own types say the same
// shapes under their own names).
declare module "undici/lib/web/fetch/formdata.js" {
  export const FormData: typeof globalThis.FormData;
}
declare module "undici/lib/web/fetch/headers.js" {
  export const Headers: typeof globalThis.Headers;
}
declare module "undici/lib/web/fetch/request.js" {
  export const Request: typeof globalThis.Request;
}
declare module "undici/lib/web/fetch/response.js" {
  export const Response: typeof globalThis.Response;
}
declare module "undici/lib/web/fetch/index.js" {
  const fetchModule: { fetch: typeof globalThis.fetch };
  export default fetchModule;
}
