/** @type {import('@remix-run/dev').AppConfig} */
export default {
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
