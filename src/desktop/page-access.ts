/**
 * Who may use a page retrace serves on a local port (the `--live` view, the `record` page): only
 * the one it printed the address to. The address holds a random token as its first path segment
 * (as Jupyter prints a token), so every request of the page — its modules, event stream and
 * WebSockets, all relative to it — carries the token without a cookie. Another local user does
 * not know it; a web page in the user's browser cannot read it, and is told apart besides by its
 * `Origin` (a cross-site WebSocket) or its `Host` (a DNS-rebinding name for 127.0.0.1).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const TOKEN_BYTES = 24;

export interface PageAccess {
  /** The page's address, once the server listens on `port`. */
  url(port: number): string;
  /**
   * The request's path inside the page (`/`, `/events`, `/websockify/1`), or undefined when the
   * request must be refused: a wrong or missing token, another host, another origin.
   */
  admit(request: IncomingMessage, port: number): string | undefined;
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];

export const pageAccess = (): PageAccess => {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const prefix = Buffer.from(`/${token}/`);
  const hasToken = (path: string): boolean => {
    const given = Buffer.from(path.slice(0, prefix.length));
    return given.length === prefix.length && timingSafeEqual(given, prefix);
  };
  return {
    url: (port) => `http://127.0.0.1:${port}/${token}/`,
    admit(request, port) {
      const hosts = LOOPBACK_HOSTS.map((host) => `${host}:${port}`);
      const host = request.headers.host;
      if (host === undefined || !hosts.includes(host)) return undefined;
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== `http://${host}`) return undefined;
      const path = request.url ?? '';
      return hasToken(path) ? path.slice(prefix.length - 1) : undefined;
    },
  };
};
