// Unix socket server and client over Bun's socket API, with write queues: Bun's write may
// accept only part of a buffer under backpressure, and large snapshots must not be cut.

export type Connection = {
  readonly id: number;
  /** Bytes go out as they are (the fuzzer sends invalid UTF-8); strings as UTF-8. */
  send(data: string | Uint8Array): void;
  end(): void;
  /** Bytes accepted by send() that the peer has not read yet. */
  readonly queuedBytes: number;
};

type Outbox = { queue: Uint8Array[]; closed: boolean; bytes: number };

type ConnState = { conn: Connection; outbox: Outbox };

type RawSocket = { write(data: Uint8Array): number; end(): void };

// Not Buffer.from: Buffer's first use costs a CLI start ~0.1 ms, and this is the same UTF-8.
const encoder = new TextEncoder();

function flush(socket: RawSocket, outbox: Outbox): void {
  while (outbox.queue.length > 0) {
    const head = outbox.queue[0]!;
    const written = socket.write(head);
    if (written < 0) { outbox.queue = []; outbox.bytes = 0; return; }
    outbox.bytes -= Math.max(0, written);
    if (written < head.length) { outbox.queue[0] = head.subarray(written); return; }
    outbox.queue.shift();
  }
}

function makeConnection(id: number, socket: RawSocket): ConnState {
  const outbox: Outbox = { queue: [], closed: false, bytes: 0 };
  const conn: Connection = {
    id,
    get queuedBytes() { return outbox.bytes; },
    send(data) {
      if (outbox.closed) return;
      const bytes = typeof data === "string" ? encoder.encode(data) : data;
      outbox.queue.push(bytes);
      outbox.bytes += bytes.length;
      if (outbox.queue.length === 1) flush(socket, outbox);
    },
    end() {
      outbox.closed = true;
      socket.end();
    },
  };
  return { conn, outbox };
}

export type ServerHandlers = {
  open(conn: Connection): void;
  data(conn: Connection, bytes: Uint8Array): void;
  close(conn: Connection): void;
};

let nextConnectionId = 1;

export function listenUnix(path: string, handlers: ServerHandlers): { stop(): void } {
  const server = Bun.listen<ConnState>({
    unix: path,
    socket: {
      open(socket) {
        socket.data = makeConnection(nextConnectionId++, socket);
        handlers.open(socket.data.conn);
      },
      data(socket, bytes) { handlers.data(socket.data.conn, bytes); },
      drain(socket) { flush(socket, socket.data.outbox); },
      close(socket) {
        socket.data.outbox.closed = true;
        handlers.close(socket.data.conn);
      },
      error(socket) { socket.data.outbox.closed = true; },
    },
  });
  return { stop: () => server.stop(true) };
}

export type ClientHandlers = { data(bytes: Uint8Array): void; close(): void };

/** Rejects with the errno code (ENOENT, ECONNREFUSED, EACCES) when nobody listens. */
export async function connectUnix(path: string, handlers: ClientHandlers): Promise<Connection> {
  let state: ConnState | undefined;
  const socket = await Bun.connect<undefined>({
    unix: path,
    socket: {
      data(_socket, bytes) { handlers.data(bytes); },
      drain(socket) { if (state) flush(socket, state.outbox); },
      close() { if (state) state.outbox.closed = true; handlers.close(); },
      error() { if (state) state.outbox.closed = true; },
    },
  });
  state = makeConnection(0, socket);
  return state.conn;
}
