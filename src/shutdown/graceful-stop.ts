/**
 * The stop sequence on SIGTERM: refuse new connections, let in-flight requests finish, give every
 * kept-alive connection that sends another request one last answer marked `Connection: close`,
 * and close what is left once the connections have been quiet for `quietMs`; past `graceMs`,
 * close everything.
 *
 * With WORKERS > 1 every process runs this at about the same time. A process asks its clients to
 * reconnect only once no process listens on the port any more: a client sent to reconnect while a
 * sibling still listens could land in that sibling's accept queue just as it closes, and be reset.
 */
import { closeListeningSockets, portHasListener } from './close-listener';
import type { ConnectionDrain } from './drain';

/**
 * How long the connections must have been quiet (no request in flight, none arriving) before the
 * remaining idle keep-alive connections are closed. A client sending back to back reuses its
 * connection within a millisecond; 500 ms also covers clients pausing between requests, and is
 * what a stop of an idle server costs.
 */
export const DRAIN_QUIET_MS = 500;
/**
 * Longest wait for the other processes on the port to close their listening sockets. Siblings get
 * their SIGTERM from the primary within milliseconds (up to ~30 ms measured on 2 loaded cores);
 * a listener that stays longer is another instance started on the same port (a rolling restart),
 * and clients are welcome to reconnect to it.
 */
export const SIBLINGS_CLOSE_MS = 1000;
/** How often the drain checks for quiet (and for siblings' listeners). */
const POLL_MS = 25;

/** The part of Bun's Server the stop sequence uses. */
export interface StoppableServer {
  readonly port: number | undefined;
  readonly pendingRequests: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
}

/** Options of gracefulStop. */
export interface GracefulStopOptions {
  drain: ConnectionDrain;
  /** Past this, connections still open (a long batch stream) are closed. */
  graceMs: number;
  quietMs?: number;
  /** Closes the listening sockets only; returns how many (default: ./close-listener.ts). */
  closeListener?: (port: number) => number;
  /** True while any process listens on the port (default: ./close-listener.ts). */
  portHasListener?: (port: number) => boolean;
  /**
   * How many streamed answers are still being written (batch streams waiting for their last lines
   * to reach their clients): the stop waits for them within the grace period, since Bun counted a
   * stream as finished while it still held its buffered lines (issue 33: an exit saying
   * `forced: false` with lines never sent).
   */
  openStreams?: () => number;
}

/** How the stop went. */
export interface StopOutcome {
  /** The listening socket was closed before any connection (else Bun closed idle ones at once). */
  listenerClosedFirst: boolean;
  /** The grace period ran out and open connections were closed. */
  forced: boolean;
  ms: number;
}

/** Stops `server` gracefully (see the file comment); resolves once every connection is closed. */
export async function gracefulStop(server: StoppableServer, options: GracefulStopOptions): Promise<StopOutcome> {
  const { drain, graceMs, quietMs = DRAIN_QUIET_MS, closeListener = closeListeningSockets } = options;
  const started = performance.now();
  const deadline = started + graceMs;
  const port = server.port;
  const listenerClosedFirst = port !== undefined && closeListener(port) > 0;
  if (listenerClosedFirst) {
    const siblingsDeadline = Math.min(deadline, started + SIBLINGS_CLOSE_MS);
    const listened = options.portHasListener ?? portHasListener;
    while (performance.now() < siblingsDeadline && listened(port)) await Bun.sleep(POLL_MS);
  }
  drain.begin();
  const streaming = options.openStreams ?? (() => 0);
  if (listenerClosedFirst) {
    while (performance.now() < deadline && !(server.pendingRequests === 0 && streaming() === 0 && drain.quietForMs() >= quietMs)) {
      await Bun.sleep(POLL_MS);
    }
  } else {
    while (performance.now() < deadline && streaming() > 0) await Bun.sleep(POLL_MS);
  }
  // stop(false): closes the idle connections left and waits for the rest (only in-flight ones, when drained).
  const stopped = server.stop(false).then(async () => {
    while (streaming() > 0 && performance.now() < deadline) await Bun.sleep(POLL_MS);
    return streaming() > 0;
  });
  const forced = await Promise.race([stopped, Bun.sleep(Math.max(0, deadline - performance.now())).then(() => true)]);
  if (forced) await server.stop(true);
  return { listenerClosedFirst, forced, ms: Math.round(performance.now() - started) };
}
