import { createContext, useContext } from "react";

/** The CSP nonce of the current request (empty in the browser after hydration). */
export const NonceContext = createContext<string>("");
export const useNonce = () => useContext(NonceContext);
