/**
 * Text layout for the studio's PDFs (proposals, contracts, invoices, certificates) with pdf-lib's
 * standard fonts. They need no font file in the bundle or the binary, but they only draw WinAnsi
 * (cp1252): every string goes through winAnsiSafe before it is measured or drawn, and every line is
 * wrapped to the margins, because clients and owners type long terms, long URLs and any script.
 */
import type { Color, PDFDocument, PDFFont, PDFPage } from "pdf-lib";
import { formatDollars } from "#domain/money";

/** What WinAnsi has beyond printable ASCII and Latin-1 (the cp1252 bytes 0x80 to 0x9F). */
const WIN_ANSI_EXTRA = new Set(
  [
    ..."\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u0192\u02C6\u02DC\u2013\u2014\u2018\u2019\u201A\u201C\u201D\u201E\u2020\u2021\u2022\u2026\u2030\u2039\u203A\u20AC\u2122",
  ].map((c) => c.codePointAt(0)),
);
const drawable = (cp: number) => (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(cp);
const allDrawable = (s: string) => [...s].every((c) => drawable(c.codePointAt(0)!));

/** Lookalikes WinAnsi lacks, and Latin letters whose stroke no decomposition removes. */
const LOOKALIKE: Record<string, string> = {
  "\t": " ",
  "\u201B": "\u2018",
  "\u201F": "\u201C",
  "\u2032": "\u2019",
  "\u2033": "\u201D",
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "\u2013",
  "\u2015": "\u2014",
  "\u2212": "-",
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ħ: "H",
  ħ: "h",
  ı: "i",
  Ŧ: "T",
  ŧ: "t",
};
/** Invisible: the soft hyphen (Helvetica would draw a dash), zero-width spaces, the byte order mark. */
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff]/gu;
/** Joiners and variation selectors, dropped only inside a character they belong to (a family emoji stays one). */
const JOINERS = /\u200c|\u200d|\p{Variation_Selector}/gu;
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * Any string made drawable in WinAnsi: kept where cp1252 has it, lookalike dashes and quotes mapped,
 * other Latin letters without their diacritics (compatibility decomposition, so ligatures and
 * full-width letters too), anything else (emoji, CJK, control characters) one "?" per character as
 * a reader sees it (a grapheme: a family emoji is one "?"). Line breaks become "\n", tabs spaces.
 */
export function winAnsiSafe(s: string): string {
  let out = "";
  const text = s.replace(/\r\n?/g, "\n").replace(INVISIBLE, "").normalize("NFC");
  for (const { segment } of graphemes.segment(text)) {
    if (segment === "\n" || allDrawable(segment)) {
      out += segment;
      continue;
    }
    const mapped = [...segment.replace(JOINERS, "")].map((c) => LOOKALIKE[c] ?? c).join("");
    const bare = mapped.normalize("NFKD").replace(/\p{M}/gu, "");
    out += allDrawable(mapped) ? mapped : bare !== "" && allDrawable(bare) ? bare : "?";
  }
  return out;
}

/** Amounts on documents always show cents: "$1,000.00", "-$250.00". */
export const money = (cents: number) => formatDollars(cents, { decimals: 2 });

const dayFormat = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "long" });

/** "2031-03-04" as "March 4, 2031"; anything else as given. */
export function formatDay(ymd: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  return date && !Number.isNaN(date.getTime()) ? dayFormat.format(date) : ymd;
}

/** A moment in the studio's zone, named: "Mar 4, 2031, 2:00 PM (Europe/Berlin)". An unknown zone prints UTC. */
export function formatMoment(iso: string, zone: string, seconds = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const style = { dateStyle: "medium", timeStyle: seconds ? "medium" : "short" } as const;
  try {
    return `${new Intl.DateTimeFormat("en-US", { ...style, timeZone: zone }).format(date)} (${zone})`;
  } catch {
    return `${new Intl.DateTimeFormat("en-US", { ...style, timeZone: "UTC" }).format(date)} (UTC)`;
  }
}

/** The UTC instant of an ISO time or a YYYY-MM-DD day, for the PDF's fixed metadata dates. */
export function metadataDate(value: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? new Date(0) : date;
}

// pdf-lib itself loads with the first document (packages.ts), not at every start of the server: here
// only its types. Its RGB colour is this plain object (what `rgb()` makes), A4 is 595.28 x 841.89
// points (`PageSizes.A4`), and its standard fonts are named by their PDF names.
const rgb = (red: number, green: number, blue: number) => ({ type: "RGB", red, green, blue }) as unknown as Color;
export const INK = rgb(0.1, 0.1, 0.12);
export const MUTED = rgb(0.42, 0.42, 0.46);
const HAIRLINE = rgb(0.82, 0.82, 0.84);
const [PAGE_W, PAGE_H] = [595.28, 841.89];
const MARGIN_X = 56;
const MARGIN_TOP = 64;
const MARGIN_BOTTOM = 64;
const LABEL_W = 120;
const AMOUNT_W = 100;
const NOTE_W = 140;

export type Fonts = { regular: PDFFont; bold: PDFFont };
export type TextStyle = { size?: number; bold?: boolean; color?: Color; indent?: number };
/** A table row: a wrapped label, an optional wrapped middle column, an amount right-aligned. */
export type TableRow = { label: string; note?: string; amount: string; bold?: boolean; ruleAbove?: boolean };

const widths = new WeakMap<PDFFont, Map<string, number>>();
/** Width as drawn: pdf-lib's own measure adds kerning that drawText does not apply. */
function measure(font: PDFFont, size: number, text: string): number {
  let cache = widths.get(font);
  if (!cache) widths.set(font, (cache = new Map()));
  let total = 0;
  for (const c of text) {
    let w = cache.get(c);
    if (w === undefined) cache.set(c, (w = font.widthOfTextAtSize(c, 1)));
    total += w;
  }
  return total * size;
}

/** One safe line (no "\n") wrapped at spaces to `width`; a word wider than a line is cut where it reaches the edge. */
export function wrapLine(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  const space = measure(font, size, " ");
  let line = "";
  let lineW = 0;
  for (const word of text.split(/ +/).filter(Boolean)) {
    const w = measure(font, size, word);
    // A word wider than a whole line starts beside what is already there and is cut at the edge.
    if (line && (lineW + space + w <= width || w > width)) {
      line += ` ${word}`;
      lineW += space + w;
    } else {
      if (line) lines.push(line);
      [line, lineW] = [word, w];
    }
    while (lineW > width) {
      let cut = 0;
      let cutW = 0;
      for (const c of line) {
        const cw = measure(font, size, c);
        if (cut > 0 && cutW + cw > width) break;
        cut += c.length;
        cutW += cw;
      }
      lines.push(line.slice(0, cut).trimEnd());
      line = line.slice(cut).trimStart();
      lineW = measure(font, size, line);
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * Writes top to bottom on A4 pages, adding a page whenever the next line would cross the bottom
 * margin. `y` is the top of the next line.
 */
export class PdfWriter {
  page!: PDFPage;
  y = 0;
  readonly width = PAGE_W - 2 * MARGIN_X;
  readonly left = MARGIN_X;
  readonly right = PAGE_W - MARGIN_X;

  private constructor(
    readonly pdf: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.newPage();
  }

  static async create(pdf: PDFDocument): Promise<PdfWriter> {
    const regular = await pdf.embedFont("Helvetica");
    const bold = await pdf.embedFont("Helvetica-Bold");
    return new PdfWriter(pdf, { regular, bold });
  }

  newPage(): void {
    this.page = this.pdf.addPage([PAGE_W, PAGE_H]);
    this.y = PAGE_H - MARGIN_TOP;
  }

  /** A new page unless `height` more fits on this one (keeps a heading with what follows). */
  ensure(height: number): void {
    if (this.y - height < MARGIN_BOTTOM) this.newPage();
  }

  space(height: number): void {
    this.y -= height;
  }

  private font(style: TextStyle) {
    return style.bold ? this.fonts.bold : this.fonts.regular;
  }

  /** Draws one line at the current y without moving it; `text` must already be safe and fit. */
  private draw(text: string, x: number, style: TextStyle, align: "left" | "right" = "left"): void {
    const size = style.size ?? 10;
    const font = this.font(style);
    const at = align === "right" ? x - measure(font, size, text) : x;
    this.page.drawText(text, { x: at, y: this.y - size, size, font, color: style.color ?? INK });
  }

  /** Wrapped text; "\n" starts a new line and an empty line leaves a gap. */
  paragraph(text: string, style: TextStyle = {}): void {
    const size = style.size ?? 10;
    const indent = style.indent ?? 0;
    for (const source of winAnsiSafe(text).split("\n")) {
      if (source.trim() === "") {
        this.space(size * 0.7);
        continue;
      }
      for (const line of wrapLine(source, this.font(style), size, this.width - indent)) {
        this.ensure(size * 1.45);
        this.draw(line, this.left + indent, style);
        this.space(size * 1.45);
      }
    }
  }

  heading(text: string, size = 13): void {
    this.space(size * 0.9);
    this.ensure(size * 1.4 + 40);
    this.paragraph(text, { size, bold: true });
    this.space(size * 0.3);
  }

  /** Owner-written text: "## " lines are headings, "- " and "* " lines bullets, blank lines gaps. */
  richText(text: string): void {
    for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
      const bullet = /^\s*[-*\u2022]\s+(.*)$/.exec(line);
      if (line.startsWith("## ")) this.heading(line.slice(3), 11);
      else if (bullet) {
        this.ensure(14.5);
        this.draw("\u2022", this.left + 4, {});
        this.paragraph(bullet[1], { indent: 16 });
      } else this.paragraph(line);
    }
  }

  /** Label on the left (muted), value wrapped beside it; an empty value prints a dash. */
  keyValues(rows: [string, string][]): void {
    for (const [key, value] of rows) {
      const keys = wrapLine(winAnsiSafe(key), this.fonts.regular, 9, LABEL_W - 10);
      const values = winAnsiSafe(value.trim() || "\u2014")
        .split("\n")
        .flatMap((l) => wrapLine(l, this.fonts.regular, 10, this.width - LABEL_W));
      for (let i = 0; i < Math.max(keys.length, values.length); i++) {
        this.ensure(14.5);
        if (keys[i]) this.draw(keys[i], this.left, { size: 9, color: MUTED });
        if (values[i]) this.draw(values[i], this.left + LABEL_W, {});
        this.space(14.5);
      }
      this.space(2);
    }
  }

  rule(): void {
    this.ensure(10);
    this.space(4);
    const y = this.y;
    this.page.drawLine({ start: { x: this.left, y }, end: { x: this.right, y }, thickness: 0.5, color: HAIRLINE });
    this.space(6);
  }

  /** Rows of label (and note) left, amount right-aligned at the margin; `header` in muted small type. */
  table(rows: TableRow[], header?: TableRow): void {
    const hasNote = rows.some((r) => r.note !== undefined);
    const labelW = this.width - AMOUNT_W - (hasNote ? NOTE_W : 0) - 10;
    if (header) {
      this.ensure(14 + 3 * 14.5);
      const muted = { size: 8.5, color: MUTED, bold: true };
      this.draw(winAnsiSafe(header.label), this.left, muted);
      if (hasNote) this.draw(winAnsiSafe(header.note ?? ""), this.left + labelW + 10, muted);
      this.draw(winAnsiSafe(header.amount), this.right, muted, "right");
      this.space(12);
      this.rule();
    }
    for (const row of rows) {
      if (row.ruleAbove) this.rule();
      const style = { bold: row.bold };
      const labels = wrapLine(winAnsiSafe(row.label), this.font(style), 10, labelW);
      const notes = wrapLine(winAnsiSafe(row.note ?? ""), this.font(style), 10, NOTE_W - 10);
      for (let i = 0; i < Math.max(labels.length, notes.length); i++) {
        this.ensure(14.5);
        if (labels[i]) this.draw(labels[i], this.left, style);
        if (notes[i]) this.draw(notes[i], this.left + labelW + 10, style);
        if (i === 0) this.draw(winAnsiSafe(row.amount), this.right, style, "right");
        this.space(14.5);
      }
      this.space(2);
    }
  }
}

/** "Page N of M" on each of `pages` (numbered among them), with `label` on the left. Added last, when M is known. */
export function addFooters(pages: PDFPage[], font: PDFFont, label: string, prefix = "Page"): void {
  const size = 8;
  const left = winAnsiSafe(label);
  const width = PAGE_W - 2 * MARGIN_X - 120;
  pages.forEach((page, i) => {
    const right = `${prefix} ${i + 1} of ${pages.length}`;
    const y = MARGIN_BOTTOM / 2;
    page.drawText(wrapLine(left, font, size, width)[0], { x: MARGIN_X, y, size, font, color: MUTED });
    page.drawText(right, { x: PAGE_W - MARGIN_X - measure(font, size, right), y, size, font, color: MUTED });
  });
}
