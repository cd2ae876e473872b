/**
 * The local server of `retrace trace show`: one trace folder, read-only, on 127.0.0.1. Who may
 * open it is decided as for the live and record pages (desktop's pageAccess): the random token
 * of the printed address, its own Host and Origin. It serves the page and the images the trace
 * names, nothing else of the disk.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfrastructureError } from '../errors.ts';
import { pageAccess } from '../desktop/index.ts';
import { TRACE_PAGE, traceImages, tracePageFile, type Trace } from '../report/trace.ts';

export interface TraceServer {
  /** The page, with its token. */
  readonly url: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export async function serveTrace(dir: string, trace: Trace, port = 0): Promise<TraceServer> {
  const access = pageAccess();
  const images = traceImages(trace);
  let bound = port;
  const server: Server = createServer((req, res) => {
    const deny = (code: number, why: string): void => {
      res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end(`${why}\n`);
    };
    if (req.method !== 'GET') return deny(405, 'only GET');
    const path = access.admit(req, bound);
    if (path === undefined) return deny(403, 'the page needs the address retrace printed, opened on this machine');
    const name = decodeURIComponent(new URL(path, 'http://127.0.0.1').pathname.slice(1)) || TRACE_PAGE;
    if (name === TRACE_PAGE) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...SECURITY_HEADERS }).end(readFileSync(tracePageFile(dir)));
      return;
    }
    if (!images.has(name)) return deny(404, 'not part of this trace');
    let png: Buffer;
    try {
      png = readFileSync(join(dir, name));
    } catch {
      return deny(404, 'missing from the trace folder');
    }
    res.writeHead(200, { 'Content-Type': 'image/png', ...SECURITY_HEADERS }).end(png);
  });
  await new Promise<void>((resolve, reject) => {
    // A port taken or refused is the machine's doing: one line, exit 3.
    server.once('error', (error) =>
      reject(new InfrastructureError('IO', `cannot serve the trace on 127.0.0.1:${port}: ${error.message}`, { cause: error })),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: access.url(bound),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
