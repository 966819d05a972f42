/**
 * Laying text out on PDF pages: styled runs wrapped to the width left by the indentation, lines going
 * down the page and onto a new one when it is full, with what a block draws beside its lines (a quote's
 * bar, a code block's background, a list item's marker).
 */
import {
  PageSizes,
  type PDFDocument,
  type PDFFont,
  type PDFPage,
  PDFString,
  rgb,
  StandardFonts,
} from 'pdf-lib';
import { textEncoder } from './text-encoding';

export type Color = readonly [number, number, number];

export interface TextStyle {
  size: number;
  color: Color;
  bold?: boolean;
  italic?: boolean;
  mono?: boolean;
  strike?: boolean;
  /** An absolute URL the text links to. */
  link?: string;
  /** Baseline shift, for superscripts and subscripts. */
  rise?: number;
}

export interface Run {
  text: string;
  style: TextStyle;
}

/** A vertical bar beside the lines of a block (quotes, hints), `x` from the left margin. */
export interface Bar {
  x: number;
  width: number;
  color: Color;
}

/** Where a block's lines go: their indentation from the left margin, and what is drawn beside them. */
export interface Frame {
  indent: number;
  /** Space kept free before the right margin. */
  right?: number;
  bars: readonly Bar[];
  /** A background from `x` (from the left margin) to the right margin (code blocks). */
  background?: { x: number; color: Color };
}

export interface ParagraphOptions {
  /** Line height as a multiple of the largest font size on the line. */
  leading?: number;
  align?: 'left' | 'center' | 'right';
  /** Keep spaces at the start of the text (code). */
  preserveIndent?: boolean;
}

export const ROOT_FRAME: Frame = { indent: 0, bars: [] };

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
export const MARGIN = 56;
const TOP = PAGE_HEIGHT - MARGIN;
const BOTTOM = MARGIN;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;

const FONTS: Record<string, StandardFonts> = {
  sans: StandardFonts.Helvetica,
  'sans-bold': StandardFonts.HelveticaBold,
  'sans-italic': StandardFonts.HelveticaOblique,
  'sans-bold-italic': StandardFonts.HelveticaBoldOblique,
  mono: StandardFonts.Courier,
  'mono-bold': StandardFonts.CourierBold,
  'mono-italic': StandardFonts.CourierOblique,
  'mono-bold-italic': StandardFonts.CourierBoldOblique,
};

const fontName = (style: TextStyle) =>
  `${style.mono ? 'mono' : 'sans'}${style.bold ? '-bold' : ''}${style.italic ? '-italic' : ''}`;

const pdfColor = ([r, g, b]: Color) => rgb(r, g, b);

interface Segment {
  text: string;
  style: TextStyle;
  width: number;
}

interface Line {
  segments: Segment[];
  width: number;
  /** The largest font size on the line. */
  size: number;
}

/** Draws a list item's marker on the baseline of the item's first line. */
export type Marker = (page: PDFPage, baseline: number, size: number) => void;

export class Layout {
  readonly pages: PDFPage[] = [];
  /** Text as the standard fonts can write it (their WinAnsi set). */
  readonly encode: (text: string) => string;
  private readonly fonts = new Map<string, PDFFont>();
  /** Glyph widths at size 1, by font name and character. */
  private readonly widths = new Map<string, Map<string, number>>();
  private page: PDFPage | undefined;
  private y = TOP;
  private marker: Marker | undefined;

  constructor(private readonly doc: PDFDocument) {
    this.encode = textEncoder(this.font({ size: 1, color: [0, 0, 0] }).getCharacterSet());
  }

  /** The standard font of a style, embedded on first use (so only the fonts used are in the file). */
  font(style: TextStyle): PDFFont {
    const name = fontName(style);
    let font = this.fonts.get(name);
    if (!font) {
      font = this.doc.embedStandardFont(FONTS[name]);
      this.fonts.set(name, font);
    }
    return font;
  }

  /** The width of encoded text as drawn: the sum of its glyphs' widths (text operations do not kern). */
  width(text: string, style: TextStyle): number {
    const name = fontName(style);
    let widths = this.widths.get(name);
    if (!widths) {
      widths = new Map();
      this.widths.set(name, widths);
    }
    let total = 0;
    for (const char of text) {
      let width = widths.get(char);
      if (width === undefined) {
        width = this.font(style).widthOfTextAtSize(char, 1);
        widths.set(char, width);
      }
      total += width;
    }
    return total * style.size;
  }

  newPage(): PDFPage {
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.pages.push(this.page);
    this.y = TOP;
    return this.page;
  }

  /** Where the next line goes, from the bottom of the page. */
  get cursor(): number {
    return this.y;
  }

  private get atTop(): boolean {
    return this.y === TOP;
  }

  /** Starts a new page unless `height` fits on this one. */
  ensure(height: number): PDFPage {
    if (!this.page || (this.y - height < BOTTOM && !this.atTop)) this.newPage();
    return this.page as PDFPage;
  }

  /** Vertical space; none at the top of a page. Inside a frame its bars and background go on. */
  gap(height: number, frame: Frame = ROOT_FRAME): void {
    if (!this.page || this.atTop) return;
    if (this.y - height < BOTTOM) {
      this.newPage();
      return;
    }
    this.decorate(this.page, frame, height);
    this.y -= height;
  }

  /** A horizontal rule across the frame. */
  rule(frame: Frame, color: Color, thickness = 0.75): void {
    const page = this.ensure(thickness);
    const y = this.y - thickness / 2;
    page.drawLine({
      start: { x: MARGIN + frame.indent, y },
      end: { x: MARGIN + CONTENT_WIDTH, y },
      thickness,
      color: pdfColor(color),
    });
    this.y -= thickness;
  }

  /** Drawn with the next line: a list item's marker. */
  setMarker(marker: Marker): void {
    this.marker = marker;
  }

  /** Styled text, wrapped to the frame's width, going onto new pages as needed. */
  paragraph(runs: readonly Run[], frame: Frame, options: ParagraphOptions = {}): void {
    const leading = options.leading ?? 1.4;
    const width = CONTENT_WIDTH - frame.indent - (frame.right ?? 0);
    const fallback = runs[0]?.style.size ?? 10;
    for (const line of this.wrap(runs, width, options.preserveIndent ?? false)) {
      const size = line.size || fallback;
      const height = size * leading;
      const page = this.ensure(height);
      this.decorate(page, frame, height);
      const baseline = this.y - (height - size) / 2 - size * 0.78;
      const free = Math.max(0, width - line.width);
      let x =
        MARGIN +
        frame.indent +
        (options.align === 'center' ? free / 2 : options.align === 'right' ? free : 0);
      if (this.marker) {
        this.marker(page, baseline, size);
        this.marker = undefined;
      }
      for (const segment of line.segments) {
        this.drawSegment(page, segment, x, baseline);
        x += segment.width;
      }
      this.y -= height;
    }
  }

  private decorate(page: PDFPage, frame: Frame, height: number): void {
    const bottom = this.y - height;
    if (frame.background) {
      const x = MARGIN + frame.background.x;
      page.drawRectangle({
        x,
        y: bottom,
        width: MARGIN + CONTENT_WIDTH - x,
        height,
        color: pdfColor(frame.background.color),
      });
    }
    for (const bar of frame.bars) {
      page.drawRectangle({
        x: MARGIN + bar.x,
        y: bottom,
        width: bar.width,
        height,
        color: pdfColor(bar.color),
      });
    }
  }

  private drawSegment(page: PDFPage, segment: Segment, x: number, baseline: number): void {
    const { text, style, width } = segment;
    if (text === '') return;
    const y = baseline + (style.rise ?? 0);
    page.drawText(text, { x, y, size: style.size, font: this.font(style), color: pdfColor(style.color) });
    if (style.strike) {
      const middle = y + style.size * 0.3;
      page.drawLine({
        start: { x, y: middle },
        end: { x: x + width, y: middle },
        thickness: style.size / 16,
        color: pdfColor(style.color),
      });
    }
    if (style.link)
      this.linkArea(page, [x, y - style.size * 0.25, x + width, y + style.size * 0.85], style.link);
  }

  /** A clickable area opening a URL. */
  private linkArea(page: PDFPage, rect: number[], url: string): void {
    const { context } = this.doc;
    const annotation = context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: rect.map((n) => Math.round(n * 100) / 100),
      Border: [0, 0, 0],
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(asciiUrl(url)) },
    });
    page.node.addAnnot(context.register(annotation));
  }

  /**
   * Breaks runs into lines at most `width` wide: at spaces, at line feeds, and inside a word only when it
   * is wider than a line. Spaces where a line breaks are dropped.
   */
  private wrap(runs: readonly Run[], width: number, preserveIndent: boolean): Line[] {
    const lines: Line[] = [];
    let line: Segment[] = [];
    let lineWidth = 0;
    let spaces: Segment[] = [];
    let word: Segment[] = [];
    /** No break has been made since the last line feed: leading spaces are the text's own. */
    let lineStart = true;
    const push = () => {
      lines.push(measureLine(line));
      line = [];
      lineWidth = 0;
      spaces = [];
      lineStart = false;
    };
    const placeWord = () => {
      if (word.length === 0) return;
      const wordWidth = sum(word);
      const spaceWidth = sum(spaces);
      if (line.length > 0 && lineWidth + spaceWidth + wordWidth > width) push();
      else if (line.length > 0 || (lineStart && preserveIndent)) {
        line.push(...spaces);
        lineWidth += spaceWidth;
      }
      spaces = [];
      if (lineWidth + wordWidth <= width) {
        line.push(...word);
        lineWidth += wordWidth;
      } else {
        // A word wider than the line: broken where it reaches the edge.
        for (const part of word) {
          let text = '';
          let textWidth = 0;
          for (const char of part.text) {
            const charWidth = this.width(char, part.style);
            if (lineWidth + textWidth + charWidth > width && (line.length > 0 || text !== '')) {
              if (text) line.push(this.segment(text, part.style));
              push();
              text = '';
              textWidth = 0;
            }
            text += char;
            textWidth += charWidth;
          }
          if (text) {
            const segment = this.segment(text, part.style);
            line.push(segment);
            lineWidth += segment.width;
          }
        }
      }
      word = [];
    };
    for (const run of runs) {
      run.text.split('\n').forEach((part, index) => {
        if (index > 0) {
          placeWord();
          push();
          lineStart = true;
        }
        for (const piece of this.encode(part).split(/( +)/)) {
          if (piece === '') continue;
          if (piece.startsWith(' ')) {
            placeWord();
            spaces.push(this.segment(piece, run.style));
          } else word.push(this.segment(piece, run.style));
        }
      });
    }
    placeWord();
    if (line.length > 0 || lines.length === 0 || lineStart) push();
    return lines;
  }

  private segment(text: string, style: TextStyle): Segment {
    return { text, style, width: this.width(text, style) };
  }

  /** Page numbers at the foot of every page. */
  numberPages(style: TextStyle): void {
    this.pages.forEach((page, index) => {
      const text = `${index + 1} / ${this.pages.length}`;
      const x = (PAGE_WIDTH - this.width(text, style)) / 2;
      page.drawText(text, {
        x,
        y: BOTTOM / 2,
        size: style.size,
        font: this.font(style),
        color: pdfColor(style.color),
      });
    });
  }
}

const sum = (segments: readonly Segment[]) => segments.reduce((total, s) => total + s.width, 0);

/** A line's segments, neighbours of one style merged (fewer, longer text operations). */
function measureLine(segments: readonly Segment[]): Line {
  const merged: Segment[] = [];
  for (const segment of segments) {
    const last = merged.at(-1);
    if (last && sameStyle(last.style, segment.style)) {
      merged[merged.length - 1] = {
        ...last,
        text: last.text + segment.text,
        width: last.width + segment.width,
      };
    } else merged.push(segment);
  }
  return { segments: merged, width: sum(merged), size: Math.max(0, ...merged.map((s) => s.style.size)) };
}

const sameStyle = (a: TextStyle, b: TextStyle) =>
  a.size === b.size &&
  a.color.every((c, i) => c === b.color[i]) &&
  fontName(a) === fontName(b) &&
  !!a.strike === !!b.strike &&
  a.link === b.link &&
  (a.rise ?? 0) === (b.rise ?? 0);

/** URI actions hold 7-bit ASCII: other characters are percent-encoded (as UTF-8). */
const asciiUrl = (url: string) => url.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
