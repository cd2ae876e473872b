import type { ParsedArgs } from '../flags.ts';
import { InvalidInputError } from '../../errors.ts';

export default async function merge(_args: ParsedArgs): Promise<number> {
  throw new InvalidInputError(undefined, 'retrace merge is not available yet');
}
