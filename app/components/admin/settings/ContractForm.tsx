import { Checkbox, Group, RadioGroup, TextArea, TextInput } from "../form/fields";
import { SectionForm, useSettingsForm, type Reply, type Values } from "./section-form";

/**
 * Settings → Contract (issue 44): the terms every proposal starts from, countersigning, how long a
 * proposal stays open, and the business details and tax printed on invoices.
 */
export function ContractForm({ values, lastResult }: { values: Values; lastResult: Reply }) {
  const [form, fields] = useSettingsForm<Record<string, string>>("contract", values, lastResult);
  return (
    <SectionForm form={form} section="contract">
      <Group
        title="Contract terms"
        description="Every new proposal starts from these terms; you can change them for one client before sending."
      >
        <TextArea
          field={fields.terms}
          label="Terms"
          rows={18}
          hint="Separate paragraphs with a blank line; start a line with “## ” for a heading. {client}, {company}, {package}, {total}, {studio}, {date} and {stages} are filled in for each proposal."
        />
        <div className="max-w-xs">
          <TextInput
            field={fields.expiryDays}
            label="Proposals stay open for (days)"
            inputMode="numeric"
            hint="A new proposal’s expiry date; you can change it per proposal or extend it later."
          />
        </div>
        <Checkbox
          field={fields.countersign}
          label="I countersign every signed proposal"
          hint="After the client signs, you add your typed name in the console and both receive the PDF with both signatures."
        />
      </Group>
      <Group title="Business details" description="Printed on proposals, invoices and receipts.">
        <TextInput field={fields.legalName} label="Legal name" hint="Empty: your studio’s name." maxLength={200} />
        <TextArea field={fields.address} label="Address" rows={3} />
        <TextInput field={fields.taxId} label="Tax ID (VAT or EIN)" maxLength={60} />
      </Group>
      <Group
        title="Tax on invoices"
        description="Amounts you ask for are what the client pays; the rate only says how much of it is tax."
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput field={fields.taxRate} label="Tax rate (%)" inputMode="decimal" hint="Empty: no tax line." />
          <TextInput field={fields.taxLabel} label="Tax name" hint="For example VAT or Sales tax." maxLength={40} />
        </div>
        <RadioGroup
          field={fields.taxMode}
          legend="Show the tax"
          options={[
            {
              value: "inclusive",
              label: "Included in the total",
              hint: "“Total $1,200.00, includes VAT 20%: $200.00”",
            },
            {
              value: "exclusive",
              label: "As net plus tax",
              hint: "“Subtotal $1,000.00, VAT 20% $200.00, Total $1,200.00”",
            },
          ]}
        />
      </Group>
    </SectionForm>
  );
}
