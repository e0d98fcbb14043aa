/** A path that names a file (an extension), which public/ may hold. */
export const namesAFile = (pathname: string) => /\.\w+$/.test(pathname);

/** A path the files app serves (server/http/files.server.ts): under /build, /fonts or /files, or one that names a file. */
export const isFilePath = (pathname: string) => /^\/(?:build|fonts|files)\//.test(pathname) || namesAFile(pathname);
