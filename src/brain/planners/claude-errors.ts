/**
 * Faults of the Anthropic API as retrace errors: one InfrastructureError('MODEL') each, with a
 * message that says what happened and what to do. Messages never carry the API key, and an
 * authentication failure carries no cause (nothing of the request is kept).
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { InfrastructureError, isRetraceError } from '../../errors.ts';

export interface RequestContext {
  readonly model: string;
  readonly baseURL: string;
  /** HTTP attempts made for the failed request (1 + retries). */
  readonly attempts: number;
  readonly timeoutMs: number;
}

/** The message the API put in its error body, if any. */
function apiMessage(err: APIError): string {
  const body = err.error as { error?: { message?: unknown } } | undefined;
  const message = body?.error?.message;
  return typeof message === 'string' && message ? message : '';
}

const tries = (n: number): string => (n <= 1 ? '' : ` after ${n} attempts`);

/** `err` (thrown by the SDK or by the planner) as an InfrastructureError('MODEL'). */
export function toModelError(err: unknown, ctx: RequestContext): InfrastructureError {
  if (isRetraceError(err) && err instanceof InfrastructureError) return err;
  const detail = err instanceof APIError ? apiMessage(err) : '';
  const said = detail ? `: ${detail}` : '';

  if (err instanceof AuthenticationError) {
    return new InfrastructureError(
      'MODEL',
      'ANTHROPIC_API_KEY was rejected (401 authentication_error): check the key ' +
        '(Claude console → API keys), or run with --planner rules.',
    );
  }
  if (err instanceof PermissionDeniedError) {
    return new InfrastructureError(
      'MODEL',
      `The API key may not use ${ctx.model} (403 permission_error${said}). Check the key's workspace, or set RETRACE_MODEL.`,
      { cause: err },
    );
  }
  if (err instanceof NotFoundError) {
    return new InfrastructureError(
      'MODEL',
      `Model ${ctx.model} was not found (404${said}). Set RETRACE_MODEL to a model that supports computer use.`,
      { cause: err },
    );
  }
  if (err instanceof BadRequestError) {
    return new InfrastructureError(
      'MODEL',
      `The Anthropic API rejected the request for ${ctx.model} (400${said}). If it names the computer tool, ` +
        'set RETRACE_COMPUTER_TOOL to a version the model supports.',
      { cause: err },
    );
  }
  if (err instanceof RateLimitError) {
    return new InfrastructureError(
      'MODEL',
      `The Anthropic API kept rate-limiting requests (429${tries(ctx.attempts)}${said}). Wait, or lower --workers.`,
      { cause: err },
    );
  }
  if (err instanceof APIConnectionTimeoutError) {
    return new InfrastructureError(
      'MODEL',
      `The Anthropic API did not answer within ${ctx.timeoutMs} ms${tries(ctx.attempts)} (${ctx.baseURL}).`,
      { cause: err },
    );
  }
  if (err instanceof APIUserAbortError) {
    return new InfrastructureError('MODEL', 'The request to the Anthropic API was aborted.', { cause: err });
  }
  if (err instanceof APIConnectionError) {
    return new InfrastructureError(
      'MODEL',
      `Could not reach the Anthropic API at ${ctx.baseURL}${tries(ctx.attempts)}. Check the network and ANTHROPIC_BASE_URL.`,
      { cause: err },
    );
  }
  if (err instanceof APIError) {
    const status = err.status ?? 'no status';
    return new InfrastructureError('MODEL', `The Anthropic API failed (${status}${tries(ctx.attempts)}${said}).`, { cause: err });
  }
  if (err instanceof SyntaxError) {
    return new InfrastructureError(
      'MODEL',
      `The Anthropic API returned a malformed response for ${ctx.model} (not JSON: ${err.message}).`,
      { cause: err },
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return new InfrastructureError('MODEL', `The request to the Anthropic API failed: ${message}`, { cause: err });
}
