import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An HTTP proxy in front of the test server whose connection can be cut, for a browser context made with
 * `proxy: { server: proxy.url }`. Playwright's offline emulation and routes belong to DevTools sessions:
 * while a page closes, its session goes first and the page's last code runs with the network back (its
 * push then reached the server: CI on 5cb4fd2, 8 runs in 25). A cut here is a cut for every page, closing
 * or not, and for the service worker, as a phone's radio is.
 */
export interface CuttableProxy {
  url: string;
  /** Every open connection is dropped and new ones fail, as when the radio goes off. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startCuttableProxy(): Promise<CuttableProxy> {
  let connected = true;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    if (!connected || !req.url) {
      req.socket.destroy();
      return;
    }
    // A proxied request names its whole URL (`GET http://localhost:3107/api/... HTTP/1.1`).
    const target = new URL(req.url);
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    if (!connected) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      connected = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      connected = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
