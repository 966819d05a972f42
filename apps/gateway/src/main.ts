import 'reflect-metadata';
import { startService } from '@app/composition/cluster/create-service';

startService('gateway').catch((error: unknown) => {
  process.stderr.write(
    `gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
