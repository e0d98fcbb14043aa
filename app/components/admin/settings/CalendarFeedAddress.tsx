import { Form } from "@remix-run/react";
import { Copy, RefreshCw } from "lucide-react";
import { useRef } from "react";
import { useToast } from "~/components/ui/Toast";
import type { CalendarActionData } from "../../../../server/http/calendar-settings.server";
import { ACTION, Answer, Block, useHydrated, usePosting } from "./calendar-blocks";

/** "Your calls in your calendar app": the feed's address to copy, and "Make a new address". */
export function FeedAddress({ feedUrl, result }: { feedUrl: string; result?: CalendarActionData }) {
  const posting = usePosting();
  const making = posting === "new-feed-address";
  const hydrated = useHydrated();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(feedUrl);
      toast.success("Address copied");
    } catch {
      toast.error("Could not copy: the address is selected, copy it with your keyboard");
    }
  };
  return (
    <Block
      id="your-feed"
      title="Your calls in your calendar app"
      lead="Every booked call, cancelled ones marked so, in the calendar you use every day."
    >
      {result?.intent === "new-feed-address" ? <Answer result={result} /> : null}
      <div>
        <label htmlFor="calendar-feed-url" className="field-label">
          Your calls&rsquo; address
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            ref={input}
            id="calendar-feed-url"
            type="text"
            readOnly
            value={feedUrl}
            onFocus={(e) => e.currentTarget.select()}
            spellCheck={false}
            aria-describedby="calendar-feed-url-hint"
            className="field-input min-w-0 flex-1 font-mono text-sm"
          />
          {hydrated ? (
            <button type="button" className="btn-ghost shrink-0 px-4" onClick={copy}>
              <Copy aria-hidden="true" className="h-4 w-4" /> Copy
            </button>
          ) : null}
        </div>
        <p id="calendar-feed-url-hint" className="mt-1.5 text-sm text-ink-muted">
          Subscribe to this address in Google Calendar, Apple Calendar or Outlook to see every booked call. Anyone with
          the address can see your calls: make a new one if it was shared.
        </p>
      </div>
      <Form method="post" action={`${ACTION}#your-feed`} preventScrollReset>
        <input type="hidden" name="section" value="calendar" />
        <button
          type="submit"
          name="intent"
          value="new-feed-address"
          className="btn-ghost px-4 py-1.5"
          disabled={posting !== null}
          aria-busy={making}
        >
          <RefreshCw aria-hidden="true" className="h-4 w-4" />
          {making ? "Making…" : "Make a new address"}
        </button>
      </Form>
    </Block>
  );
}
