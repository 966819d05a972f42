/**
 * The values of GitBook's attributes that its block data has a field for, both ways between the text
 * of a tag's (or an `<img>`'s) attribute and GitBook's types: a `Length` (`375` pixels, or `50%`,
 * `{value: 50, unit: '%'}` as GitBook's renderer reads a percentage), an `Icon` name, a
 * `VerticalAlignment`, a boolean. A text that is not such a value gives undefined: the attribute is
 * dropped, never an error. Each `…Text` writes the one form its reader reads back to the same value.
 */
import type { Length } from '@gitbook/api';

export type { Length };

/** A decimal number, maybe followed by `%`: the forms GitBook writes (`375`, `66.66666666666666%`). */
const DECIMAL = /^\d{1,16}(?:\.\d{1,32})?$/;
const LENGTH = /^(\d{1,16}(?:\.\d{1,32})?)(%?)$/;

/** The `Length` an attribute writes, or undefined when it is not one. */
export function lengthOf(text: string): Length | undefined {
  const match = LENGTH.exec(text.trim());
  if (match === null) return undefined;
  const value = Number(match[1]);
  if (!isLength(value)) return undefined;
  return match[2] === '%' ? { value, unit: '%' } : value;
}

/** The attribute text of a `Length`; undefined for what Markdown has no form for (another unit, a negative). */
export function lengthText(length: unknown): string | undefined {
  if (typeof length === 'number') return isLength(length) ? String(length) : undefined;
  if (typeof length !== 'object' || length === null) return undefined;
  const { value, unit } = length as { value?: unknown; unit?: unknown };
  return unit === '%' && typeof value === 'number' && isLength(value) ? `${value}%` : undefined;
}

/**
 * A number `String` writes as a decimal `lengthOf` reads back: not negative, nor so small or so large
 * that it is written with an exponent (under a millionth; 10^16 and more).
 */
const isLength = (value: number) => Number.isFinite(value) && DECIMAL.test(String(value));

/** GitBook's `Icon`: a name of lowercase words and dashes (`gear`, `book-open`), at most 50 characters. */
const ICON = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const iconOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length <= 50 && ICON.test(value) ? value : undefined;

/** GitBook's `VerticalAlignment`, written `valign` on a column. */
export const VERTICAL_ALIGNMENTS = ['top', 'middle', 'bottom'] as const;
export type VerticalAlignment = (typeof VERTICAL_ALIGNMENTS)[number];

export const verticalAlignmentOf = (value: unknown): VerticalAlignment | undefined =>
  (VERTICAL_ALIGNMENTS as readonly unknown[]).includes(value) ? (value as VerticalAlignment) : undefined;

/** A boolean attribute as `{% code %}` writes it: `true` or `false`. */
export function booleanOf(text: string): boolean | undefined {
  if (text === 'true') return true;
  return text === 'false' ? false : undefined;
}

export const booleanText = (value: unknown): string | undefined =>
  typeof value === 'boolean' ? String(value) : undefined;
