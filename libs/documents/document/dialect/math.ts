/**
 * GitBook's math: `$$…$$` in text is an inline formula (`DocumentInlineMath`); `$$` fences on their own
 * lines, or a paragraph of nothing but one `$$…$$`, a math block (`DocumentBlockMath`, which GitBook's
 * Markdown writes so). Read and written by micromark-extension-math and mdast-util-math, which keep TeX
 * as it is (no Markdown escapes inside). Single dollars are text, as in GitBook (`$5 and $10`).
 */
import type { DocumentBlockMath, DocumentInlineMath } from '@gitbook/api';
import type { Paragraph } from 'mdast';
import {
  type InlineMath,
  type Math as MathNode,
  mathFromMarkdown as mdastMathFrom,
  mathToMarkdown as mdastMathTo,
} from 'mdast-util-math';
import { math } from 'micromark-extension-math';

const options = { singleDollarTextMath: false };

export const mathSyntax = () => math(options);
export const mathFromMarkdown = () => mdastMathFrom();
export const mathToMarkdown = () => mdastMathTo(options);

/** A math block's data: GitBook's formula, and docs-hub's `meta` (text after the opening `$$`, rare). */
export type MathData = DocumentBlockMath['data'] & { meta?: string };

export const mathBlock = (formula: string, meta?: string | null): DocumentBlockMath => ({
  object: 'block',
  type: 'math',
  isVoid: true,
  data: { formula, ...(meta ? { meta } : {}) } as MathData,
});

export const inlineMath = (formula: string): DocumentInlineMath => ({
  object: 'inline',
  type: 'inline-math',
  isVoid: true,
  data: { formula },
});

/** The formula of a paragraph holding nothing but one `$$…$$`: a math block in GitBook's Markdown. */
export const loneFormula = (paragraph: Paragraph): string | undefined =>
  paragraph.children.length === 1 && paragraph.children[0].type === 'inlineMath'
    ? paragraph.children[0].value
    : undefined;

export const mathNode = (data: MathData): MathNode => ({
  type: 'math',
  value: data.formula,
  meta: data.meta ?? null,
});

export const inlineMathNode = (formula: string): InlineMath => ({ type: 'inlineMath', value: formula });
