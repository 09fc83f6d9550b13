/**
 * One worker of `startMockCluster` (mock-server/cluster/start-cluster.ts): reads its options from the
 * environment, starts an ordinary mock server on the shared port whose admin changes go
 * through the primary (cluster-member.ts), reports to the primary, and stops when the
 * primary says so.
 */
import { adminAccessMode } from '../admin/access.ts';
import { SHUTDOWN_MESSAGE, WORKER_OPTIONS_ENV, type MockClusterOptions, type WorkerMessage } from './start-cluster.ts';
import { clusterMember } from './member.ts';
import { createLogger } from '../helpers/logging.ts';
import { startInProcess } from '../process.ts';

const send = (message: WorkerMessage) => process.send?.(message);

try {
  const { workers, logLevel, ...options } = JSON.parse(process.env[WORKER_OPTIONS_ENV] ?? '{}') as MockClusterOptions;
  const mock = await startInProcess({ ...options, logger: createLogger(logLevel ?? 'silent') }, clusterMember(workers));
  process.on('message', (message: { type?: string }) => {
    if (message?.type === SHUTDOWN_MESSAGE.type) void mock.close().finally(() => process.exit(0));
  });
  // Ctrl-C reaches every process of the terminal's group: the primary decides when workers stop.
  process.on('SIGINT', () => {});
  send({
    type: 'listening',
    url: mock.url,
    port: mock.port,
    summary: mock.dataset.current.summary,
    status: { adminMode: adminAccessMode(mock.ops.access), faultsActive: mock.ops.faults.active },
  });
} catch (error) {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exitCode = 2;
  process.disconnect?.();
}
