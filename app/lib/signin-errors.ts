/**
 * Sign-in failures reach the shop as a code in the URL (`/templates?signin=required&error=…`).
 * Only the codes listed here are shown, each as its message from SPEC.md §8; any other text in
 * the query is ignored, never printed.
 */
export const SIGNIN_DIALOG_ERRORS = {
  google_failed: "Failed to sign in with Google. Please try again.",
} as const;

export type SignInDialogErrorCode = keyof typeof SIGNIN_DIALOG_ERRORS;

/** The sign-in dialog's message for an `error` code, or null for anything else. */
export function signInDialogError(code: string | null | undefined): string | null {
  if (!code || !Object.prototype.hasOwnProperty.call(SIGNIN_DIALOG_ERRORS, code)) return null;
  return SIGNIN_DIALOG_ERRORS[code as SignInDialogErrorCode];
}
