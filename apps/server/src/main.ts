import cluster from 'node:cluster';
import { runPrimary } from './cluster';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { startFailure, startServer } from './start';

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const logger = createLogger(config.LOG_LEVEL);
if (config.generatedJwtSecret && cluster.isPrimary) {
  logger.warn(
    `JWT_SECRET not set: using a generated development secret stored in ${config.DATA_DIR}`,
  );
}

try {
  if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) {
    await runPrimary(config, logger);
  } else {
    const { shutdown } = await startServer(config, logger, {
      prepared: cluster.isWorker && process.env.CAMPUS_PREPARED === '1',
    });
    let stopping = false;
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.on(signal, () => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'shutting down');
        // SIGTERM comes from an orchestrator: pause for its load balancer. Ctrl-C does not wait.
        shutdown({ pause: signal === 'SIGTERM' }).then(
          () => process.exit(0),
          (error: unknown) => {
            logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
      });
    }
  }
} catch (error) {
  // One line an operator can act on, not a stack.
  console.error(`failed to start: ${startFailure(error, config)}`);
  process.exit(1);
}
