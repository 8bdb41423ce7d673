import { startServiceProcess, type ServiceProcess } from './service-process';

/**
 * A localnet (in memory, free port, the tag registry loaded) in a process of its own, as it
 * runs beside the app: the client's CPU is not counted as the server's, nor the reverse.
 */
export function startLocalnetProcess(): Promise<ServiceProcess> {
  return startServiceProcess('./localnet-process.ts');
}
