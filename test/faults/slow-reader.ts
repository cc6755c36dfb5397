/**
 * A raw TCP client with a receive buffer as small as Linux allows, for the read-ahead and shutdown
 * fault tests (issue 33). node:net cannot set SO_RCVBUF and its paused sockets let the kernel's
 * autotuning grow the buffer (370 KB measured), so how far a server can run ahead of a client that
 * stops reading would depend on the kernel: this one calls libc directly and reads only when told.
 */
import { dlopen, FFIType, ptr, read } from 'bun:ffi';

const AF_INET = 2;
const SOCK_STREAM = 1;
const SOL_SOCKET = 1;
const SO_RCVBUF = 8;
const MSG_DONTWAIT = 0x40;
const EAGAIN = 11;

const libc = dlopen('libc.so.6', {
  socket: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  setsockopt: { args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
  connect: { args: [FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
  send: { args: [FFIType.i32, FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i64 },
  recv: { args: [FFIType.i32, FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i64 },
  close: { args: [FFIType.i32], returns: FFIType.i32 },
  __errno_location: { args: [], returns: FFIType.ptr },
});

/** The HTTP/1.1 answer read so far: status line and headers, then the body with its chunked framing removed. */
export interface RawAnswer {
  head: string;
  body: string;
  /** The server closed the connection (or reset it). */
  ended: boolean;
}

/** A connection whose kernel receive buffer is `receiveBuffer` bytes (Linux doubles it and keeps at least 4,608). */
export class SlowReader {
  readonly fd: number;
  #raw = Buffer.alloc(0);
  #ended = false;

  constructor(port: number, receiveBuffer = 4096) {
    this.fd = libc.symbols.socket(AF_INET, SOCK_STREAM, 0);
    if (this.fd < 0) throw new Error('socket() failed');
    // Before connect(): the window scale is agreed in the handshake.
    const size = new Int32Array([receiveBuffer]);
    libc.symbols.setsockopt(this.fd, SOL_SOCKET, SO_RCVBUF, ptr(size), 4);
    const address = Buffer.alloc(16);
    address.writeUInt16LE(AF_INET, 0);
    address.writeUInt16BE(port, 2);
    address.set([127, 0, 0, 1], 4);
    if (libc.symbols.connect(this.fd, ptr(address), 16) !== 0) throw new Error('connect() failed');
  }

  /** Sends `bytes` whole (blocking: the server reads the request body while this waits). */
  send(bytes: Uint8Array): void {
    let sent = 0;
    while (sent < bytes.length) {
      const n = Number(libc.symbols.send(this.fd, ptr(bytes.subarray(sent)), bytes.length - sent, 0));
      if (n <= 0) throw new Error('send() failed');
      sent += n;
    }
  }

  /** Reads what the kernel holds now, at most `max` bytes; returns how many were read. */
  readAvailable(max = 1 << 20): number {
    if (this.#ended) return 0;
    const buffer = Buffer.alloc(max);
    const n = Number(libc.symbols.recv(this.fd, ptr(buffer), max, MSG_DONTWAIT));
    if (n > 0) {
      this.#raw = Buffer.concat([this.#raw, buffer.subarray(0, n)]);
      return n;
    }
    if (n === 0 || read.i32(libc.symbols.__errno_location()!, 0) !== EAGAIN) this.#ended = true;
    return 0;
  }

  /**
   * Reads until `done(answer)` holds, the connection ends or `timeoutMs` passes, at most
   * `bytesPerSecond` (default: as fast as it comes) and at most `chunk` bytes per read (so it
   * stops close to where `done` first holds).
   */
  async readUntil(
    done: (answer: RawAnswer) => boolean,
    timeoutMs: number,
    bytesPerSecond = Number.POSITIVE_INFINITY,
    chunk = 1 << 20,
  ): Promise<RawAnswer> {
    const deadline = performance.now() + timeoutMs;
    const tickMs = 20;
    const perTick = Math.min(chunk, Number.isFinite(bytesPerSecond) ? Math.max(1, Math.round((bytesPerSecond * tickMs) / 1000)) : chunk);
    for (;;) {
      const answer = this.answer();
      if (done(answer) || answer.ended || performance.now() > deadline) return answer;
      const n = this.readAvailable(perTick);
      if (n === 0 || Number.isFinite(bytesPerSecond)) await Bun.sleep(n === 0 ? 5 : tickMs);
    }
  }

  /** The answer as read so far. */
  answer(): RawAnswer {
    const text = this.#raw.toString('latin1');
    const split = text.indexOf('\r\n\r\n');
    if (split < 0) return { head: text, body: '', ended: this.#ended };
    return { head: text.slice(0, split), body: dechunk(this.#raw.subarray(split + 4)), ended: this.#ended };
  }

  /** Closes the connection (with unread bytes in its buffer the kernel sends a reset). */
  close(): void {
    libc.symbols.close(this.fd);
  }
}

/** The body of a chunked answer as far as whole chunk headers go (a chunk cut short keeps what arrived). */
function dechunk(raw: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = Number.parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(eol + 2, Math.min(raw.length, eol + 2 + size)));
    at = eol + 2 + size + 2;
    if (at > raw.length) break;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The whole lines of an NDJSON body, parsed (a line cut short is left out). */
export function wholeLines<T = Record<string, unknown>>(body: string): T[] {
  const end = body.lastIndexOf('\n');
  if (end < 0) return [];
  return body
    .slice(0, end)
    .split('\n')
    .map((line) => JSON.parse(line) as T);
}

/** The bytes of a multipart POST to `path` (`headers`: more header lines, each ending in CRLF): request head and body, ready for SlowReader.send. */
export async function multipartRequest(path: string, key: string, form: FormData, headers = ''): Promise<Uint8Array> {
  const request = new Request('http://x', { method: 'POST', body: form });
  // Read before the body is consumed (afterwards Bun answers null).
  const type = request.headers.get('content-type');
  const body = new Uint8Array(await request.arrayBuffer());
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\n${headers}` +
    `Content-Type: ${type}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}
