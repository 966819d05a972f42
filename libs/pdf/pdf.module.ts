import { SignedLinks } from '@app/platform/http/signed-links';
import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { PdfController } from './http/pdf.controller';
import { PdfQueries } from './read/pdf.queries';
import { PdfRenderer } from './read/pdf-renderer';
import { PdfThreads } from './read/pdf-threads';
import { PdfCollection } from './write/pdf-collection.job';
import { PdfExports } from './write/pdf-export.job';

@Module({})
export class PdfModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(PdfModule, role, {
      controllers: [PdfController],
      queries: [PdfQueries, PdfRenderer, PdfThreads, SignedLinks],
      jobs: [PdfExports, PdfCollection, PdfRenderer, PdfThreads],
    });
  }
}
