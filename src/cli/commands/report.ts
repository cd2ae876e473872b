import type { ParsedArgs } from '../flags.ts';
import { InvalidInputError } from '../../errors.ts';

export default async function report(_args: ParsedArgs): Promise<number> {
  throw new InvalidInputError(undefined, 'retrace report is not available yet');
}
