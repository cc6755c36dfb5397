/**
 * One service instance per port. The WORKERS processes share the port through SO_REUSEPORT, but
 * the kernel lets ANY process of the same user join such a port and take a share of its
 * connections (a second server started by mistake did, with another database, and its
 * connections were reset when it died). So the primary, before it opens the store:
 *
 * 1. takes a claim on the port: a Linux abstract Unix socket named after it, which only one
 *    process can bind and the kernel releases when that process dies (no stale lock file). It
 *    closes the race of two instances started at the same moment;
 * 2. checks that nothing else holds the port: a plain bind (no SO_REUSEPORT) fails while any
 *    socket, shared or not, is bound to it.
 *
 * Workers do not claim: the primary that started them holds the claim for them. A program that
 * itself asks for SO_REUSEPORT under the same user after the start can still join (only running
 * the service under its own user stops that: the kernel requires the same effective uid).
 */

/** Raised when the port is served by someone else; the message says by whom and what to do. */
export class PortTakenError extends Error {
  override name = 'PortTakenError';
}

/** Name of the claim of a port (abstract namespace: leading NUL, per network namespace like ports are). */
export function claimName(port: number): string {
  return `\0ai-detector-port-${port}`;
}

function isAddressInUse(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'EADDRINUSE';
}

/** A held claim; released by the kernel at exit, or by release(). */
export interface PortClaim {
  release(): void;
}

/** Takes the claim of `port`; PortTakenError when another instance holds it. */
function takeClaim(port: number): PortClaim {
  try {
    // Nobody connects to it: being bound is the claim.
    const listener = Bun.listen({ unix: claimName(port), socket: { data() {} } });
    return { release: () => listener.stop(true) };
  } catch (error) {
    // No abstract sockets (not Linux): the bind check below still refuses a taken port.
    if (!isAddressInUse(error)) return { release() {} };
    throw new PortTakenError(
      `Port ${port} is already served by another ai-detector on this machine. Stop it first, or set PORT to a free port.`,
    );
  }
}

/**
 * Throws PortTakenError when any socket is bound to host:port: a bind without SO_REUSEPORT is
 * refused then, even next to sockets that share the port. Other failures (an address this
 * machine does not have, a privileged port) are rethrown as they are.
 */
export function assertPortFree(host: string, port: number): void {
  if (port === 0) return;
  try {
    Bun.listen({ hostname: host, port, socket: { data() {} } }).stop(true);
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    throw new PortTakenError(`${host}:${port} is already in use by another program. Stop it first, or set PORT to a free port.`);
  }
}

/**
 * Claims host:port for this instance (see the file comment). PORT=0 needs no claim: the kernel
 * picks a port nobody holds.
 */
export function claimPort(host: string, port: number): PortClaim {
  if (port === 0) return { release() {} };
  const claim = takeClaim(port);
  try {
    assertPortFree(host, port);
  } catch (error) {
    claim.release();
    throw error;
  }
  return claim;
}
