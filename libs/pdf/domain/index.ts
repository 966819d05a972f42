/** Pages and their GitBook documents as one PDF (see README.md beside this file). */
export { type FlatPage, flattenPages, type PageTreeNode } from './flatten-pages';
export { type PdfOptions, type PdfPage, renderPdf } from './render-pdf';
