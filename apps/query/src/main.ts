import 'reflect-metadata';
import { startService } from '@app/composition/cluster/create-service';

startService('query').catch((error: unknown) => {
  process.stderr.write(`query failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
