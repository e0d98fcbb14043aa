/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // One server module: the HTTP server, the operator commands and the app in build/index.js
  // (server/bundle.ts, decision 022).
  server: "./server/bundle.ts",
  serverModuleFormat: "esm",
  tailwind: true,
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  browserNodeBuiltinsPolyfill: { modules: {} },
  // Bundled (and tree-shaken) into the server build: the package itself holds every icon.
  serverDependenciesToBundle: [/^lucide-react/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
