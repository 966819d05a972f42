import { BadRequestException, type PipeTransform } from '@nestjs/common';
import { isPagePath } from '../read/content.queries';

/** A page path is not an id: any text without control characters, up to 2048 characters. */
export class PagePathPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isPagePath(value))
      throw new BadRequestException('pagePath: must be 1 to 2048 characters without control characters');
    return value;
  }
}
