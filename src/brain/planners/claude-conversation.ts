/**
 * The conversation kept with the model: building its blocks, keeping only the last few
 * screenshots, reading responses, and the guard that no request carries a secret's value.
 */
import type {
  BetaContentBlock,
  BetaContentBlockParam,
  BetaImageBlockParam,
  BetaMessage,
  BetaMessageParam,
  BetaTextBlockParam,
  BetaToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { InfrastructureError } from '../../errors.ts';
import type { Screenshot } from './claude-screenshot.ts';

/** What an image older than the last `keepScreenshots` becomes. */
export const OMITTED_SCREENSHOT = '[screenshot omitted]';

export const textBlock = (text: string): BetaTextBlockParam => ({ type: 'text', text });

export const imageBlock = (shot: Screenshot): BetaImageBlockParam => ({
  type: 'image',
  source: { type: 'base64', media_type: 'image/png', data: shot.base64 },
});

/** A tool_result; `toolsetName` is set for toolset members (the API requires it there). */
export function toolResult(
  toolUseId: string,
  content: BetaToolResultBlockParam['content'],
  options: { readonly isError?: boolean; readonly toolsetName?: string } = {},
): BetaToolResultBlockParam {
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content,
    ...(options.isError ? { is_error: true } : {}),
    ...(options.toolsetName ? { toolset_name: options.toolsetName } : {}),
  };
}

/**
 * Replaces every image but the last `keep` (counted over the whole conversation, inside
 * tool results too) by a short text. Writes into `messages`; returns how many it replaced.
 */
export function pruneScreenshots(messages: BetaMessageParam[], keep: number): number {
  let seen = 0;
  let replaced = 0;
  const visit = (blocks: unknown[]): void => {
    for (let i = blocks.length - 1; i >= 0; i--) {
      const block = blocks[i] as { type?: string; content?: unknown };
      if (block.type === 'image') {
        seen++;
        if (seen > keep) {
          blocks[i] = textBlock(OMITTED_SCREENSHOT);
          replaced++;
        }
      } else if (block.type === 'tool_result' && Array.isArray(block.content)) {
        visit(block.content);
      }
    }
  };
  for (let m = messages.length - 1; m >= 0; m--) {
    const content = messages[m]!.content;
    if (Array.isArray(content)) visit(content);
  }
  return replaced;
}

/**
 * The assistant's content as it goes back into the conversation: text, tool calls and
 * thinking are kept as the API expects them; anything else is dropped.
 */
export function assistantContent(content: readonly BetaContentBlock[]): BetaContentBlockParam[] {
  const out: BetaContentBlockParam[] = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        if (block.text) out.push(textBlock(block.text));
        break;
      case 'tool_use':
        out.push({
          type: 'tool_use',
          id: block.id,
          name: block.name,
          input: block.input,
          ...(block.toolset_name ? { toolset_name: block.toolset_name } : {}),
        });
        break;
      case 'thinking':
        out.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
        break;
      case 'redacted_thinking':
        out.push({ type: 'redacted_thinking', data: block.data });
        break;
      default:
        break;
    }
  }
  return out;
}

/** The text of a response, joined. */
export const responseText = (message: BetaMessage): string =>
  message.content
    .filter((b): b is Extract<BetaContentBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();

/**
 * Checks that a response has the shape the planner reads; the SDK passes JSON through
 * unchecked, so a proxy or a broken server could hand back anything.
 * @throws InfrastructureError('MODEL') naming what is wrong
 */
export function assertMessage(value: unknown, model: string): asserts value is BetaMessage {
  const problem = ((): string | undefined => {
    if (typeof value !== 'object' || value === null) return `expected a JSON object, got ${typeof value}`;
    const m = value as Record<string, unknown>;
    if (!Array.isArray(m.content)) return 'it has no content array';
    for (const [i, b] of (m.content as unknown[]).entries()) {
      const block = b as Record<string, unknown> | null;
      if (typeof block !== 'object' || block === null || typeof block.type !== 'string') {
        return `content[${i}] is not a content block`;
      }
      if (block.type === 'tool_use' && (typeof block.id !== 'string' || typeof block.name !== 'string')) {
        return `content[${i}] is a tool_use without id or name`;
      }
      if (block.type === 'text' && typeof block.text !== 'string') return `content[${i}] is a text block without text`;
    }
    const usage = m.usage as Record<string, unknown> | undefined;
    if (typeof usage !== 'object' || usage === null) return 'it has no usage';
    if (typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') {
      return 'usage.input_tokens / usage.output_tokens are missing';
    }
    return undefined;
  })();
  if (problem) {
    throw new InfrastructureError('MODEL', `The Anthropic API returned a malformed response for ${model}: ${problem}.`);
  }
}

/** Input + output tokens of a response, cache reads and writes included. */
export function usedTokens(message: BetaMessage): number {
  const u = message.usage;
  return u.input_tokens + u.output_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
}

/**
 * Throws if the request would carry the value of a secret. Image data is left out of the
 * search: it carries pixels, not text, and a short value would match base64 by chance.
 * @throws InfrastructureError('MODEL'), without the value
 */
export function assertNoSecrets(request: unknown, secretValues: readonly string[]): void {
  const values = secretValues.filter((v) => v.length > 0);
  if (values.length === 0) return;
  const text = JSON.stringify(request, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'base64' && 'data' in v ? { ...(v as object), data: '' } : v,
  );
  const leaked = values.filter((v) => text.includes(v)).length;
  if (leaked > 0) {
    throw new InfrastructureError(
      'MODEL',
      `Refusing to send a request to the model: it contains the value of ${leaked} secret(s). ` +
        'Goals and prompts must hold ${secret.NAME} placeholders, never resolved values.',
    );
  }
}
