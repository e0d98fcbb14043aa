/** A booking's first-touch attribution (zod-free: the calendar in the browser reads it too). */
export const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign"] as const;
export type Attribution = {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  referrer: string | null;
};

/** A draft's first-touch attribution (its `origin` query string) as fields. */
export function parseOrigin(origin: string): Attribution {
  const p = new URLSearchParams(origin);
  const get = (k: string) => p.get(k) || null;
  return {
    utmSource: get("utm_source"),
    utmMedium: get("utm_medium"),
    utmCampaign: get("utm_campaign"),
    referrer: get("referrer"),
  };
}
