import type { ParsedArgs } from '../flags.ts';
import { InvalidInputError } from '../../errors.ts';

export default async function validate(_args: ParsedArgs): Promise<number> {
  throw new InvalidInputError(undefined, 'retrace validate is not available yet');
}
