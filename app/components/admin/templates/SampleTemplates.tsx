import { Trash2 } from "lucide-react";
import { useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";

const templates = (n: number) => `${n} sample ${n === 1 ? "template" : "templates"}`;

/**
 * While the starter studio's sample templates are in the shop: how many, and "Remove sample
 * templates" (confirmed; a sample someone bought stays).
 */
export function SampleTemplates({ count, onRemoved }: { count: number; onRemoved: () => Promise<unknown> }) {
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const removeSamples = trpc.admin.templates.removeSamples.useMutation({
    onSuccess: async ({ removed, kept }) => {
      setConfirming(false);
      toast.success(
        `Removed ${removed} sample ${removed === 1 ? "template" : "templates"}` +
          (kept ? `; kept ${kept} that ${kept === 1 ? "has" : "have"} purchases` : ""),
      );
      await onRemoved();
    },
    onError: (e) => toast.error(`Error deleting template: ${e.message}`),
  });
  if (!count) return null;
  return (
    <>
      <div
        className="mb-6 flex flex-col gap-3 rounded-card border border-accent/30 bg-accent-soft/60 p-4 text-sm sm:flex-row sm:items-center sm:justify-between"
        role="region"
        aria-label="Sample templates"
      >
        <p className="text-ink-soft">
          <span className="font-semibold text-accent-ink">{templates(count)}</span> from the starter studio{" "}
          {count === 1 ? "is" : "are"} in your shop.
        </p>
        <button type="button" className="btn-ghost shrink-0 px-4 py-1.5" onClick={() => setConfirming(true)}>
          <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove sample templates
        </button>
      </div>
      {confirming ? (
        <Modal title="Remove sample templates?" onClose={() => setConfirming(false)}>
          <p className="text-ink-soft">
            The {templates(count)} and their files are deleted for good; they never come back, even after a restart. A
            sample someone has bought stays, so its buyer keeps the download.
          </p>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <button type="button" className="btn-ghost" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn-dark bg-danger hover:bg-danger/90"
              disabled={removeSamples.isPending}
              onClick={() => removeSamples.mutate()}
            >
              {removeSamples.isPending ? "Removing..." : "Remove sample templates"}
            </button>
          </div>
        </Modal>
      ) : null}
    </>
  );
}
