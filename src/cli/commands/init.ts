import type { ParsedArgs } from '../flags.ts';
import { InvalidInputError } from '../../errors.ts';

export default async function init(_args: ParsedArgs): Promise<number> {
  throw new InvalidInputError(undefined, 'retrace init is not available yet');
}
