/** Graceful stop of the HTTP server: drain kept-alive connections, then close (see graceful-stop.ts). */
export { closeListeningSockets, listeningFds, portHasListener } from './close-listener';
export { ConnectionDrain } from './drain';
export {
  DRAIN_QUIET_MS,
  gracefulStop,
  SIBLINGS_CLOSE_MS,
  type GracefulStopOptions,
  type StoppableServer,
  type StopOutcome,
} from './graceful-stop';
