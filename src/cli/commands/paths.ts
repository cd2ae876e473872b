import type { ParsedArgs } from '../flags.ts';
import { InvalidInputError } from '../../errors.ts';

export default async function paths(_args: ParsedArgs): Promise<number> {
  throw new InvalidInputError(undefined, 'retrace paths is not available yet');
}
