import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SettingsScreen } from "~/components/admin/settings/SettingsScreen";
import { consoleMeta } from "~/lib/seo";
import { settingsAction, settingsLoader, type SettingsActionData } from "../../server/http/settings-page.server";
import type { ConsoleHandle } from "./admin";

export const meta = consoleMeta("Settings");

export const handle: ConsoleHandle = { heading: "Settings" };

/** Admins only (anyone else goes to /templates); each section's saved content in its form's shape. */
export async function loader({ request }: LoaderFunctionArgs) {
  return settingsLoader(request);
}

/** Every section's form posts here: a save, a clear of the sample, a case study moved or removed. */
export async function action({ request }: ActionFunctionArgs) {
  return settingsAction(request);
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as SettingsActionData | undefined;
  return <SettingsScreen data={data} result={result} />;
}
