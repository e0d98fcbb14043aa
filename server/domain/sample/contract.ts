import type { ContractSettings } from "../contract-settings";

/**
 * The sample studio's contract terms (issue 44.1): sample data like the rest, the owner's to
 * replace in Settings → Contract. Placeholders are filled in for each proposal.
 */
export const sampleContract: ContractSettings = {
  terms: [
    "## Agreement",
    "This agreement is made on {date} between {studio} (the studio) and {client} of {company} (the client) for the {package} project described in this proposal, for a total of {total}.",
    "## Payment",
    "The client pays in stages: {stages}. Each invoice is due within the days it states. Work begins once the first stage is paid.",
    "## Scope and changes",
    "The studio delivers the scope and items listed in this proposal. Requests beyond them are quoted separately and begin only once the client agrees in writing.",
    "## Feedback and approvals",
    "The client gives feedback within five business days of each delivery. Two rounds of revisions are included at each stage.",
    "## Ownership",
    "On payment in full, the client owns the final design and the site's content. The studio may show the work in its portfolio unless the client asks otherwise.",
    "## Cancellation",
    "Either side may end this agreement in writing. Stages already paid are not refunded; work done since the last paid stage is invoiced at its share of the total.",
  ].join("\n\n"),
  countersign: false,
  expiryDays: 14,
  legalName: "",
  address: "",
  taxId: "",
  taxLabel: "Tax",
  taxRate: null,
  taxMode: "inclusive",
};
