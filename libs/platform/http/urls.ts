import { Inject, Injectable } from '@nestjs/common';
import type { Config } from '../config/config';
import { CONFIG } from '../config/config.module';

/** Absolute links for resources' `urls`, from the configured public base URL. */
@Injectable()
export class Urls {
  constructor(@Inject(CONFIG) private readonly config: Config) {}
  api(path: string): string {
    return `${this.config.publicUrl}/v1${path}`;
  }
  app(path: string): string {
    return `${this.config.publicUrl}/app${path}`;
  }
}
