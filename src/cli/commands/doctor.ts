import type { ParsedArgs } from '../flags.ts';
import { InvalidInputError } from '../../errors.ts';

export default async function doctor(_args: ParsedArgs): Promise<number> {
  throw new InvalidInputError(undefined, 'retrace doctor is not available yet');
}
