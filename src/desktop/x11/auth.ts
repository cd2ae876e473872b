/**
 * The MIT-MAGIC-COOKIE-1 of a local display, read from the Xauthority file, so a connection to
 * a user's own X server is let in. retrace's own Xvfb runs without access control: no cookie.
 */
import { readFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';

export interface XAuth {
  readonly name: string;
  readonly data: Buffer;
}

const FAMILY_LOCAL = 256;
const FAMILY_WILD = 65535;

interface Entry {
  readonly family: number;
  readonly address: string;
  readonly display: string;
  readonly name: string;
  readonly data: Buffer;
}

/** Parses an Xauthority file: big-endian counted strings, four a record after the family. */
export const parseXauthority = (file: Buffer): Entry[] => {
  const entries: Entry[] = [];
  let at = 0;
  const counted = (): Buffer => {
    const length = file.readUInt16BE(at);
    const value = file.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    return value;
  };
  while (at + 2 <= file.length) {
    try {
      const family = file.readUInt16BE(at);
      at += 2;
      const address = counted().toString('latin1');
      const display = counted().toString('latin1');
      const name = counted().toString('latin1');
      const data = Buffer.from(counted());
      entries.push({ family, address, display, name, data });
    } catch {
      break; // A truncated file: use what was read.
    }
  }
  return entries;
};

/** The cookie for local display number `display`, if the user's Xauthority file holds one. */
export const cookieFor = (display: number, env: NodeJS.ProcessEnv = process.env): XAuth | undefined => {
  const file = env.XAUTHORITY || join(env.HOME ?? homedir(), '.Xauthority');
  let entries: Entry[];
  try {
    entries = parseXauthority(readFileSync(file));
  } catch {
    return undefined;
  }
  const host = hostname();
  const found = entries.find(
    (e) =>
      e.name === 'MIT-MAGIC-COOKIE-1' &&
      (e.display === '' || e.display === String(display)) &&
      (e.family === FAMILY_WILD || (e.family === FAMILY_LOCAL && e.address === host)),
  );
  return found === undefined ? undefined : { name: found.name, data: found.data };
};
