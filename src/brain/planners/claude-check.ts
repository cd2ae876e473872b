/** A one-token request that tells whether the key is accepted and the model answers (for `retrace doctor`). */
import Anthropic from '@anthropic-ai/sdk';
import { resolveModel } from './computer-tools.ts';
import { toModelError } from './claude-errors.ts';

export async function checkModel(model?: string): Promise<string> {
  const chosen = resolveModel(model);
  const client = new Anthropic({ maxRetries: 1, timeout: 20_000 });
  const started = performance.now();
  try {
    await client.messages.create({ model: chosen, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] });
  } catch (error) {
    throw toModelError(error, { model: chosen, baseURL: client.baseURL, attempts: 2, timeoutMs: 20_000 });
  }
  return `${chosen} answered in ${Math.round(performance.now() - started)} ms (${client.baseURL})`;
}
