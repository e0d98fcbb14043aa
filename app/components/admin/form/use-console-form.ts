import { getFormProps, useForm, type DefaultValue } from "@conform-to/react";
import { useState, type FormEvent } from "react";
import { parseWithZod } from "@conform-to/zod";
import type { z } from "zod";

/**
 * A console form that saves through tRPC, through conform as Settings' forms are: the form's zod
 * schema checks it in the browser (each field once it is left, then as it is typed, and all on
 * submit), its messages shown under the fields; once it holds, `onValid` gets what was typed, as
 * strings (the server's schema reads the same strings again), and the schema's output.
 *
 * Values are not coerced (`disableAutoCoercion`): an empty field reaches the schema as "", so its
 * messages are the ones the server's schema gives.
 *
 * The third element holds the server's refusal of the last save (`refuse(message)` from the
 * mutation's onError), cleared when the form is sent again or typed in; spread its `formProps`
 * on the <form> in place of conform's getFormProps.
 */
export function useConsoleForm<Schema extends z.ZodTypeAny>({
  id,
  schema,
  defaultValue,
  onValid,
}: {
  id: string;
  schema: Schema;
  defaultValue?: Record<string, string>;
  onValid: (typed: Record<string, string>, value: z.output<Schema>) => void;
}) {
  const [refused, refuse] = useState<string | null>(null);
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id,
    defaultValue: defaultValue as DefaultValue<z.input<Schema>>,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema, disableAutoCoercion: true }),
    onSubmit(event, { formData, submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      const typed: Record<string, string> = {};
      for (const [name, value] of formData) if (typeof value === "string") typed[name] = value;
      onValid(typed, submission.value);
    },
  });
  const formProps = {
    ...getFormProps(form),
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      refuse(null);
      form.onSubmit(event);
    },
    onInput: () => refuse(null),
  };
  return [form, fields, { refused, refuse, formProps }] as const;
}
