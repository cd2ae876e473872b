/** The last lines a process wrote to a stream: enough for an error message, bounded in memory. */
import type { Readable } from 'node:stream';

export const lineTail = (stream: Readable | null, maxLines = 20, maxChars = 4_000): (() => string) => {
  let text = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    text = (text + chunk).slice(-maxChars * 2);
  });
  return () => {
    const lines = text.replace(/\s+$/, '').split('\n').slice(-maxLines).join('\n');
    return lines.length > maxChars ? lines.slice(-maxChars) : lines;
  };
};
