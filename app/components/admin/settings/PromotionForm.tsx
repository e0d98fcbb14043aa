import { Checkbox, Group, Select, TextArea, TextInput } from "../form/fields";
import { SectionForm, useSettingsForm, type Reply, type Values } from "./section-form";

/** Settings → Promotion: the offer on one package, and its texts. */
export function PromotionForm({
  values,
  lastResult,
  packageNames,
}: {
  values: Values;
  lastResult: Reply;
  packageNames: { id: string; name: string }[];
}) {
  const [form, fields] = useSettingsForm<Record<string, string>>("promotion", values, lastResult);
  return (
    <SectionForm form={form} section="promotion">
      <Group title="Offer">
        <Checkbox
          field={fields.enabled}
          label="Promotion on"
          hint="Shows the banner on the home page and the offer on its package."
        />
        <div className="grid gap-5 sm:grid-cols-3">
          <TextInput field={fields.discountPercent} label="Discount (%)" inputMode="numeric" />
          <Select
            field={fields.packageId}
            label="Package"
            options={packageNames.map((p) => ({ value: p.id, label: p.name }))}
          />
          <TextInput field={fields.name} label="Internal name" />
        </div>
      </Group>
      <Group
        title="Texts"
        description="Write {percent} where the discount goes and {package} for the package's name: the percent is set once, above."
      >
        <div className="grid gap-5 sm:grid-cols-2">
          <TextInput field={fields.badge} label="Badge" placeholder="{percent}% OFF" />
          <TextInput field={fields.title} label="Title" />
        </div>
        <TextArea field={fields.description} label="Description" rows={2} />
        <TextInput field={fields.requirement} label="Requirement" />
        <TextInput field={fields.ctaText} label="Call to action" />
      </Group>
    </SectionForm>
  );
}
