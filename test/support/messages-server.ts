/**
 * A local stand-in for the Anthropic Messages API, for tests that run the real SDK.
 *
 * `POST /v1/messages` (any query, e.g. `?beta=true`; any `anthropic-beta` header) answers from
 * a script, one reply per request: a model turn with computer-use calls, a final text turn, an
 * HTTP error, a malformed body, or a reply held back to force a client timeout. Tool calls are
 * shaped after the tool the request declares: a `computer` tool with an `action` field for the
 * dated versions, one tool_use per member with `toolset_name: "computer"` for the toolset.
 * Every request is recorded (headers and body) so tests can count them and search them.
 *
 * Bounded: 127.0.0.1 on a random port, at most `maxRequests` requests, closes itself after
 * `lifetimeMs`, and answers 500 (not retryable) once the script is used up.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One computer-use call: the action name and its parameters, e.g. `{ action: 'left_click', coordinate: [1, 2] }`. */
export interface ComputerCall {
  readonly action: string;
  readonly [param: string]: unknown;
}

/** A call of a custom tool the request declares, e.g. `{ tool: 'click_element', input: { ref: 'e1' } }`. */
export interface CustomCall {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
}

export interface Usage {
  readonly input_tokens: number;
  readonly output_tokens: number;
}

export type ScriptedReply =
  /** A model turn calling the computer tool; `stop_reason: tool_use`. */
  | { readonly kind: 'tools'; readonly calls: readonly (ComputerCall | CustomCall)[]; readonly text?: string; readonly usage?: Usage }
  /** A model turn without tool calls; `stop_reason: end_turn` unless given. */
  | { readonly kind: 'end'; readonly text: string; readonly stopReason?: string; readonly usage?: Usage }
  /** An API error with the API's error body. `retryAfterMs` sets the `retry-after-ms` header. */
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly type?: string;
      readonly message?: string;
      readonly retryAfterMs?: number;
    }
  /** 200 with `content-type: application/json` and a body that is not JSON. */
  | { readonly kind: 'malformed'; readonly body?: string }
  /** 200 with any JSON body (for responses of the wrong shape). */
  | { readonly kind: 'json'; readonly body: unknown }
  /** Holds the reply back for `ms` (the server's own timer, cleared on close). */
  | { readonly kind: 'delay'; readonly ms: number; readonly then: ScriptedReply };

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body text. */
  readonly raw: string;
  /** The parsed JSON body (undefined if it was not JSON). */
  readonly body: any;
}

export interface MessagesServer {
  /** Base URL for the SDK's `baseURL` / ANTHROPIC_BASE_URL. */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Replies not used yet. */
  readonly remaining: number;
  close(): Promise<void>;
}

export interface MessagesServerOptions {
  /** @default 100 */
  readonly maxRequests?: number;
  /** The server closes itself after this long, in ms. @default 30000 */
  readonly lifetimeMs?: number;
}

/** Width and height of a base64 PNG, read from its IHDR chunk. */
export function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64.slice(0, 44), 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Every base64 image of a request body, in order, tool results included. */
export function requestImages(body: any): { width: number; height: number; data: string }[] {
  const out: { width: number; height: number; data: string }[] = [];
  const visit = (blocks: unknown): void => {
    if (!Array.isArray(blocks)) return;
    for (const b of blocks as any[]) {
      if (b?.type === 'image' && b.source?.type === 'base64') out.push({ ...pngSize(b.source.data), data: b.source.data });
      else if (b?.type === 'tool_result') visit(b.content);
    }
  };
  for (const m of body?.messages ?? []) visit(m.content);
  return out;
}

/** A rough token count, in the spirit of the API's: ~4 characters a token, ~w×h/750 an image. */
export function estimateInputTokens(body: any, raw: string): number {
  const images = requestImages(body);
  const imageChars = images.reduce((n, i) => n + i.data.length, 0);
  const imageTokens = images.reduce((n, i) => n + Math.ceil((i.width * i.height) / 750), 0);
  return Math.ceil((raw.length - imageChars) / 4) + imageTokens;
}

let nextId = 1;
const id = (prefix: string): string => `${prefix}_${String(nextId++).padStart(8, '0')}`;

const isCustom = (call: ComputerCall | CustomCall): call is CustomCall => typeof call.tool === 'string';

function toolUseBlock(call: ComputerCall | CustomCall, toolset: boolean): Record<string, unknown> {
  if (isCustom(call)) return { type: 'tool_use', id: id('toolu'), name: call.tool, input: call.input };
  const { action, ...params } = call;
  return toolset
    ? { type: 'tool_use', id: id('toolu'), name: action, input: params, toolset_name: 'computer' }
    : { type: 'tool_use', id: id('toolu'), name: 'computer', input: { action, ...params } };
}

function messageBody(reply: ScriptedReply & { kind: 'tools' | 'end' }, request: any, raw: string): unknown {
  const toolset = Array.isArray(request?.tools) && request.tools.some((t: any) => t?.type?.startsWith('computer_toolset'));
  const content: Record<string, unknown>[] = [];
  if (reply.text) content.push({ type: 'text', text: reply.text });
  if (reply.kind === 'tools') for (const call of reply.calls) content.push(toolUseBlock(call, toolset));
  const usage = reply.usage ?? {
    input_tokens: estimateInputTokens(request, raw),
    output_tokens: Math.ceil(JSON.stringify(content).length / 4) + 8,
  };
  return {
    id: id('msg'),
    type: 'message',
    role: 'assistant',
    model: request?.model ?? 'unknown',
    content,
    stop_reason: reply.kind === 'tools' ? 'tool_use' : (reply.stopReason ?? 'end_turn'),
    stop_sequence: null,
    usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export async function startMessagesServer(script: readonly ScriptedReply[], options: MessagesServerOptions = {}): Promise<MessagesServer> {
  const maxRequests = options.maxRequests ?? 100;
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers });
    res.end(body);
  };

  const answer = (reply: ScriptedReply, request: RecordedRequest, res: ServerResponse): void => {
    switch (reply.kind) {
      case 'tools':
      case 'end':
        send(res, 200, JSON.stringify(messageBody(reply, request.body, request.raw)));
        return;
      case 'error': {
        const type = reply.type ?? ERROR_TYPES[reply.status] ?? 'api_error';
        const body = { type: 'error', error: { type, message: reply.message ?? `scripted ${reply.status}` } };
        const headers: Record<string, string> = reply.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(reply.retryAfterMs) };
        send(res, reply.status, JSON.stringify(body), headers);
        return;
      }
      case 'malformed':
        send(res, 200, reply.body ?? '{"id": "msg_broken", "content": [');
        return;
      case 'json':
        send(res, 200, JSON.stringify(reply.body));
        return;
      case 'delay': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer(reply.then, request, res);
        }, reply.ms);
        timers.add(timer);
        return;
      }
    }
  };

  const fail = (res: ServerResponse, status: number, message: string): void =>
    send(res, status, JSON.stringify({ type: 'error', error: { type: 'api_error', message } }), {
      'x-should-retry': 'false',
    });

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/messages') {
      fail(res, 404, `messages-server: no route ${req.method} ${req.url}`);
      return;
    }
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const request: RecordedRequest = { method: req.method, url: req.url ?? '', headers: { ...req.headers }, raw, body };
    requests.push(request);
    if (requests.length > maxRequests) {
      fail(res, 500, `messages-server: more than ${maxRequests} requests`);
      return;
    }
    const reply = queue.shift();
    if (!reply) {
      fail(res, 500, 'messages-server: the script is used up');
      return;
    }
    answer(reply, request, res);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };
  const lifetime = setTimeout(() => void close(), options.lifetimeMs ?? 30_000);
  lifetime.unref();

  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get remaining() {
      return queue.length;
    },
    close: () => {
      clearTimeout(lifetime);
      return close();
    },
  };
}
