import { lazy, Suspense, type ComponentProps } from "react";
import type { SignInDialog as Dialog } from "./SignInDialog";

const SignInDialog = lazy(() => import("./SignInDialog").then((m) => ({ default: m.SignInDialog })));

/**
 * The sign-in dialog, loaded when first shown: most shop visits never need it, so its code stays
 * out of the shop pages' first load. The server still renders it for `?signin=required`.
 */
export function LazySignInDialog(props: ComponentProps<typeof Dialog>) {
  return (
    <Suspense fallback={null}>
      <SignInDialog {...props} />
    </Suspense>
  );
}
