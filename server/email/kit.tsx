import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { CSSProperties, ReactElement, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { logoWords, type StudioIdentity } from "#domain/sample/site";

/** What a message shows of the studio (Settings → Studio): its wordmark, footer and sign-off. */
export type MailStudio = Pick<StudioIdentity, "name" | "designer" | "role" | "contactEmail">;

/**
 * The studio's emails, built from React Email's components (tables and inline styles that mail
 * clients read): one fluid column up to 560 px that narrows to 320 px, every colour set on
 * purpose (no default black on a transparent background) with a dark variant for clients that
 * follow the reader's setting, and a footer naming the studio and where to write. React escapes
 * every value; each message also has its own plain-text part, written beside it.
 */

const C = {
  paper: "#f7f4ee",
  card: "#fffdf9",
  ink: "#161513",
  muted: "#5c574f",
  line: "#e2dccf",
  accent: "#b4421a",
} as const;

const SANS = "Helvetica, Arial, sans-serif";
const SERIF = "Georgia, 'Times New Roman', serif";

/** Dark variants for clients that honour prefers-color-scheme (Apple Mail, Outlook.com); others keep the light one. */
const DARK = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
@media (prefers-color-scheme: dark) {
  .em-body, .em-body > table > tbody > tr > td { background-color: #161513 !important; }
  .em-card { background-color: #221f1b !important; border-color: #3a352e !important; }
  .em-text, .em-heading { color: #f4efe6 !important; }
  .em-muted { color: #c9c1b4 !important; }
  .em-link { color: #f3a683 !important; }
  .em-button { background-color: #f4efe6 !important; color: #161513 !important; }
  .em-row { border-color: #3a352e !important; }
}`;

/** A message's HTML: the XHTML doctype mail clients expect, then the markup. */
export function renderEmail(message: ReactElement): string {
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">${renderToStaticMarkup(message)}`;
}

export function EmailLayout({
  preview,
  title,
  studio,
  children,
}: {
  /** The line mail apps show beside the subject. */
  preview: string;
  title: string;
  studio: MailStudio;
  children: ReactNode;
}) {
  const [first, rest] = logoWords(studio.name);
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <style>{DARK}</style>
      </Head>
      <Preview>{preview}</Preview>
      <Body className="em-body" style={{ margin: 0, padding: 0, backgroundColor: C.paper, fontFamily: SANS }}>
        <Container style={{ maxWidth: "560px", width: "100%", margin: "0 auto", padding: "24px 12px" }}>
          <Section
            className="em-card"
            style={{
              backgroundColor: C.card,
              border: `1px solid ${C.line}`,
              borderRadius: "16px",
              padding: "28px 22px",
            }}
          >
            <Text className="em-text" style={{ margin: "0 0 20px", fontFamily: SERIF, fontSize: "20px", color: C.ink }}>
              {first}
              {rest ? (
                <>
                  {" "}
                  <em className="em-link" style={{ color: C.accent }}>
                    {rest}
                  </em>
                </>
              ) : null}
            </Text>
            <Heading
              as="h1"
              className="em-heading"
              style={{
                margin: "0 0 16px",
                fontFamily: SERIF,
                fontWeight: "normal",
                fontSize: "26px",
                lineHeight: "1.25",
                color: C.ink,
              }}
            >
              {title}
            </Heading>
            {children}
          </Section>
          <Footer studio={studio} />
        </Container>
      </Body>
    </Html>
  );
}

function Footer({ studio }: { studio: MailStudio }) {
  return (
    <Section style={{ padding: "20px 12px 0" }}>
      <Text className="em-muted" style={{ margin: 0, fontSize: "13px", lineHeight: "1.6", color: C.muted }}>
        {studio.name}
        {studio.role ? ` · ${studio.role}` : ""}
        {studio.contactEmail ? (
          <>
            <br />
            Questions? Write to{" "}
            <A href={`mailto:${studio.contactEmail}`} muted>
              {studio.contactEmail}
            </A>
          </>
        ) : null}
      </Text>
    </Section>
  );
}

/** A paragraph of the message. */
export function P({ children, muted, style }: { children: ReactNode; muted?: boolean; style?: CSSProperties }) {
  return (
    <Text
      className={muted ? "em-muted" : "em-text"}
      style={{
        margin: "0 0 16px",
        fontSize: muted ? "14px" : "16px",
        lineHeight: "1.6",
        color: muted ? C.muted : C.ink,
        ...style,
      }}
    >
      {children}
    </Text>
  );
}

/** A link in the text; long addresses wrap instead of widening the message. */
export function A({ href, children, muted }: { href: string; children: ReactNode; muted?: boolean }) {
  return (
    <Link
      href={href}
      className="em-link"
      style={{ color: muted ? C.muted : C.accent, textDecoration: "underline", wordBreak: "break-word" }}
    >
      {children}
    </Link>
  );
}

/** The message's one main action. */
export function ButtonLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: "4px 0 20px" }}>
      <Button
        href={href}
        className="em-button"
        style={{
          backgroundColor: C.ink,
          color: C.paper,
          borderRadius: "999px",
          padding: "12px 22px",
          fontSize: "16px",
          fontWeight: 600,
          textDecoration: "none",
        }}
      >
        {children}
      </Button>
    </Section>
  );
}

/** A full address to paste where the button does not work: it wraps at any character. */
export function PasteLink({ href }: { href: string }) {
  return (
    <Text
      className="em-muted"
      style={{
        margin: "0 0 16px",
        fontSize: "13px",
        lineHeight: "1.5",
        color: C.muted,
        wordBreak: "break-all",
        overflowWrap: "anywhere",
      }}
    >
      <A href={href} muted>
        {href}
      </A>
    </Text>
  );
}

export type Row = [label: string, value: string];

/** Label and value pairs (a summary, a receipt): the label above its value, so nothing overflows at 320 px. */
export function Rows({ rows }: { rows: Row[] }) {
  return (
    <Section style={{ margin: "0 0 8px" }}>
      {rows.map(([label, value], i) => (
        <Text
          key={`${label}-${i}`}
          className="em-text em-row"
          style={{
            margin: 0,
            padding: "8px 0",
            borderTop: i ? `1px solid ${C.line}` : "none",
            fontSize: "15px",
            lineHeight: "1.5",
            color: C.ink,
            wordBreak: "break-word",
            whiteSpace: "pre-line",
          }}
        >
          <span className="em-muted" style={{ display: "block", fontSize: "13px", color: C.muted }}>
            {label}
          </span>
          {value}
        </Text>
      ))}
    </Section>
  );
}

export type RowGroup = { title: string; rows: Row[] };

/** Groups of rows under small headings (the booking summary, in the review step's sections). */
export function RowGroups({ groups }: { groups: RowGroup[] }) {
  return (
    <>
      {groups.map((g) => (
        <Section key={g.title} style={{ margin: "0 0 12px" }}>
          <Text
            className="em-muted"
            style={{
              margin: "8px 0 0",
              fontSize: "12px",
              fontWeight: 600,
              letterSpacing: "0.08em",
              textTransform: "uppercase",
              color: C.muted,
            }}
          >
            {g.title}
          </Text>
          <Rows rows={g.rows} />
        </Section>
      ))}
    </>
  );
}

/** Who signs a message: the designer's first name, else the studio's name. */
export function signature(studio: MailStudio): string {
  return studio.designer.trim().split(/\s+/)[0] || studio.name;
}

/** The sign-off every message to a client ends with. */
export function SignOff({ studio }: { studio: MailStudio }) {
  return (
    <P style={{ margin: "24px 0 0" }}>
      Talk soon,
      <br />
      {signature(studio)}
    </P>
  );
}
