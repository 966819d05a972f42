import type { Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AuthGuard } from '../auth/auth.guard';
import { ErrorEnvelopeFilter } from './errors';
import { EtagInterceptor } from './etag';

/** What every public HTTP surface applies to each request: bearer auth, the error envelope, ETags. */
export const HTTP_PIPELINE: Provider[] = [
  { provide: APP_GUARD, useClass: AuthGuard },
  { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
  { provide: APP_INTERCEPTOR, useClass: EtagInterceptor },
];
