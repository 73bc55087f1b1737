/**
 * A TCP relay on loopback in front of one port (a Chromium's DevTools
 * endpoint) that can go silent: `drop()` stops forwarding in both
 * directions and keeps every socket open — no FIN, no reset — as a network
 * that drops a connection silently does. The client's socket never closes,
 * so only a liveness check can tell the connection is dead.
 */
import { createServer, connect, type AddressInfo, type Socket } from "node:net";

export interface BlackholeProxy {
  port: number;
  /** `url` with its host and port replaced by the relay's. */
  via(url: string): string;
  /** Stops forwarding everything, now and for later connections; keeps the sockets open. */
  drop(): void;
  /** Connections the relay accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startBlackholeProxy(targetPort: number): Promise<BlackholeProxy> {
  const sockets = new Set<Socket>();
  const pairs: { client: Socket; upstream: Socket }[] = [];
  let dropped = false;
  let connections = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.once("close", () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    connections++;
    track(client);
    if (dropped) {
      client.pause();
      return;
    }
    const upstream = connect(targetPort, "127.0.0.1");
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    // One side closing is passed on while forwarding; once dropped, nothing is.
    client.once("close", () => dropped || upstream.destroy());
    upstream.once("close", () => dropped || client.destroy());
    pairs.push({ client, upstream });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.host = `127.0.0.1:${port}`;
      return parsed.toString();
    },
    drop() {
      dropped = true;
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    get connections() {
      return connections;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
