import { categoryMeta } from "#domain/categories";

/** A template's preview image, or its category's gradient and emoji when it has none. */
export function TemplatePreview({
  name,
  category,
  imageUrl,
  eager = false,
  className = "",
}: {
  name: string;
  category: string;
  imageUrl: string | null;
  eager?: boolean;
  className?: string;
}) {
  const meta = categoryMeta(category);
  // Above-the-fold previews (eager) are LCP candidates: fetched at high priority. Lowercase
  // attribute: React 18 does not know `fetchPriority` (it warns, then passes it through anyway).
  const priority = eager ? ({ fetchpriority: "high" } as Record<string, string>) : {};
  if (imageUrl) {
    return (
      <img
        src={imageUrl}
        alt={`Preview of the ${name} template`}
        width={1200}
        height={800}
        loading={eager ? "eager" : "lazy"}
        {...priority}
        decoding="async"
        className={`aspect-[3/2] w-full object-cover ${className}`}
      />
    );
  }
  return (
    <div
      role="img"
      aria-label={`${meta.label} template ${name}`}
      className={`flex aspect-[3/2] w-full items-center justify-center text-6xl ${className}`}
      style={{ backgroundImage: `linear-gradient(135deg, ${meta.gradient[0]}, ${meta.gradient[1]})` }}
    >
      <span aria-hidden="true">{meta.emoji}</span>
    </div>
  );
}
