import { BooleanQuery } from '@app/platform/http/fields';
import { IsAbsentOr } from '@app/platform/http/validation';
import { Matches } from 'class-validator';
import type { PdfQuery } from '../read/pdf.queries';

export class PdfQueryDto implements PdfQuery {
  /** The page to print (with `only`, that page alone; else the page and those under it). */
  @IsAbsentOr()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'page must be a page id' })
  page?: string;

  @BooleanQuery()
  only?: boolean;
}

/** A download link's token (in the query: longer than a path parameter may be), checked in full when followed. */
export class DownloadQueryDto {
  @Matches(/^[A-Za-z0-9_-]{1,2048}\.[A-Za-z0-9_-]{43}$/, { message: 'token must be a download link token' })
  token: string;
}
