import { ButtonLink, EmailLayout, P, PasteLink, renderEmail, type MailStudio } from "../email/kit";
import { MAGIC_LINK_TTL_MS } from "./magic-link.server";

/** The sign-in email: the button, the full link to paste, how long it works, and what to do if unasked. */
export function magicLinkEmail(link: string, studio: MailStudio): { text: string; html: string } {
  const minutes = Math.round(MAGIC_LINK_TTL_MS / 60000);
  const text = `Sign in to ${studio.name}\n\nOpen this link to sign in (it works once and expires in ${minutes} minutes):\n\n${link}\n\nIf you did not ask for this, you can ignore this email.\n`;
  const html = renderEmail(
    <EmailLayout
      title={`Sign in to ${studio.name}`}
      studio={studio}
      preview={`Your sign-in link works once and expires in ${minutes} minutes.`}
    >
      <P>Use the button below to sign in. The link works once and expires in {minutes} minutes.</P>
      <ButtonLink href={link}>Sign in</ButtonLink>
      <P muted style={{ margin: "0 0 8px" }}>
        If the button does not work, paste this link into your browser:
      </P>
      <PasteLink href={link} />
      <P muted style={{ margin: 0 }}>
        If you did not ask for this, you can ignore this email.
      </P>
    </EmailLayout>,
  );
  return { text, html };
}
