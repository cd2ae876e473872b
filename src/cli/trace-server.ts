/**
 * The local server of `retrace trace show`: one trace folder, read-only. It listens on 127.0.0.1
 * only, answers only requests whose Host is that address (a DNS-rebinding page cannot reach it)
 * and whose Origin, if any, is its own, and only with a random token: given in the printed URL,
 * then kept in a same-site, HTTP-only cookie for the page's images. It serves the page and the
 * images the trace names, nothing else of the disk.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfrastructureError } from '../errors.ts';
import { TRACE_PAGE, traceImages, tracePageFile, type Trace } from '../report/trace.ts';

export interface TraceServer {
  /** The page, with its token. */
  readonly url: string;
  close(): Promise<void>;
}

const COOKIE = 'retrace-trace';
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

const same = (a: string | undefined, b: string): boolean =>
  a !== undefined && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const cookieOf = (req: IncomingMessage): string | undefined =>
  (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([name]) => name === COOKIE)?.[1];

export async function serveTrace(dir: string, trace: Trace, port = 0): Promise<TraceServer> {
  const token = randomBytes(24).toString('hex');
  const images = traceImages(trace);
  let origin = '';
  const server: Server = createServer((req, res) => {
    const deny = (code: number, why: string): void => {
      res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end(`${why}\n`);
    };
    if (req.method !== 'GET') return deny(405, 'only GET');
    if (req.headers.host !== origin.slice('http://'.length)) return deny(421, 'wrong Host');
    if (req.headers.origin !== undefined && req.headers.origin !== origin) return deny(403, 'wrong Origin');
    const url = new URL(req.url ?? '/', origin);
    const given = url.searchParams.get('token') ?? undefined;
    if (!same(given, token) && !same(cookieOf(req), token)) return deny(403, 'the page needs the token of the URL retrace printed');
    const name = url.pathname === '/' ? TRACE_PAGE : decodeURIComponent(url.pathname.slice(1));
    const headers = { ...SECURITY_HEADERS, 'Set-Cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/` };
    if (name === TRACE_PAGE) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers }).end(readFileSync(tracePageFile(dir)));
      return;
    }
    if (!images.has(name)) return deny(404, 'not part of this trace');
    let png: Buffer;
    try {
      png = readFileSync(join(dir, name));
    } catch {
      return deny(404, 'missing from the trace folder');
    }
    res.writeHead(200, { 'Content-Type': 'image/png', ...headers }).end(png);
  });
  await new Promise<void>((resolve, reject) => {
    // A port taken or refused is the machine's doing: one line, exit 3.
    server.once('error', (error) =>
      reject(new InfrastructureError('IO', `cannot serve the trace on 127.0.0.1:${port}: ${error.message}`, { cause: error })),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  origin = `http://127.0.0.1:${bound}`;
  return {
    url: `${origin}/?token=${token}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
