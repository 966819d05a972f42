import 'reflect-metadata';
import { startService } from '@app/composition/cluster/create-service';

startService('command').catch((error: unknown) => {
  process.stderr.write(
    `command failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
