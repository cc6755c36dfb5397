/**
 * Connection draining for a graceful stop. Once begun, every response carries `Connection: close`
 * (RFC 9112 §9.6): the client reads the whole answer, then closes, and opens its next connection
 * elsewhere instead of reusing one that is about to go away. It also remembers when the last
 * request arrived, so the stop can wait until the connections have gone quiet.
 */
import { Elysia } from 'elysia';

/** Draining state shared by the plugin (per request) and the stop sequence. */
export class ConnectionDrain {
  #draining = false;
  #lastRequestAt = performance.now();

  /** From now on, responses ask clients to close their connection. */
  begin(): void {
    this.#draining = true;
  }

  /** True once begin() was called. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Milliseconds since the last request arrived. */
  quietForMs(now = performance.now()): number {
    return now - this.#lastRequestAt;
  }

  /** Elysia plugin: notes each request's arrival and, while draining, adds `Connection: close` (errors included). */
  plugin() {
    const drain = this;
    return new Elysia({ name: 'connection-drain' }).onRequest(function markDraining({ set }) {
      drain.#lastRequestAt = performance.now();
      if (drain.#draining) set.headers.connection = 'close';
    });
  }
}
