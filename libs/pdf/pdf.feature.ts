import type { FeatureManifest } from '@app/platform/feature/feature';
import { PDF_COLLECT_JOB, PDF_EXPORT_JOB } from './domain/pdf-export';

/** PDF exports of a space's or a change request's content, behind signed links; their collection. */
export const pdfFeature: FeatureManifest = {
  name: 'pdf',
  module: async () => (await import('./pdf.module')).PdfModule,
  jobs: [PDF_EXPORT_JOB, PDF_COLLECT_JOB],
};
