import type { Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AuthGuard } from '../auth/auth.guard';
import { ErrorEnvelopeFilter } from './errors';

/** What every public HTTP surface applies to each request in Nest: bearer auth, the error envelope (ETags: `sendEtags`). */
export const HTTP_PIPELINE: Provider[] = [
  { provide: APP_GUARD, useClass: AuthGuard },
  { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
];
