import 'reflect-metadata';
import { startService } from '@app/composition/cluster/create-service';

startService('projector').catch((error: unknown) => {
  process.stderr.write(
    `projector failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
