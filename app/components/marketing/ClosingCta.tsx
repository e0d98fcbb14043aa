import { Link } from "@remix-run/react";

export function ClosingCta({ title, text }: { title: string; text: string }) {
  return (
    <section className="container-page mt-24" aria-labelledby="closing-title">
      <div className="rounded-card bg-ink px-8 py-14 text-center text-paper sm:px-16">
        <h2 id="closing-title" className="mx-auto max-w-2xl text-4xl leading-tight text-paper sm:text-5xl">
          {title}
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-paper/75">{text}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/booking" className="btn-primary px-6 py-3">
            Book a free consultation
          </Link>
          <Link to="/packages" className="btn border border-paper/30 px-6 py-3 text-paper hover:bg-paper/10">
            View packages
          </Link>
        </div>
      </div>
    </section>
  );
}
