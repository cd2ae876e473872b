/**
 * MIT-MAGIC-COOKIE-1 authority files: read, so a connection to a user's own X server is let in;
 * written, so the Xvfb retrace starts lets in only the holder of its cookie (the user who
 * started the run), not every local user who can reach its socket.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface XAuth {
  readonly name: string;
  readonly data: Buffer;
}

const FAMILY_LOCAL = 256;
const FAMILY_WILD = 65535;
const MIT_COOKIE = 'MIT-MAGIC-COOKIE-1';
const COOKIE_BYTES = 16;

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
      e.name === MIT_COOKIE &&
      (e.display === '' || e.display === String(display)) &&
      (e.family === FAMILY_WILD || (e.family === FAMILY_LOCAL && e.address === host)),
  );
  return found === undefined ? undefined : { name: found.name, data: found.data };
};

const countedField = (value: Buffer): Buffer => {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(value.length);
  return Buffer.concat([length, value]);
};

/**
 * A fresh cookie in a new private directory (0700, the file 0600), for `Xvfb -auth`. One entry
 * for any host and any display number: the server reads the cookie before it has chosen its
 * number (`-displayfd`), and Xlib matches such an entry for every display.
 */
export const writeCookieFile = (): { readonly dir: string; readonly file: string } => {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-x-'));
  const file = join(dir, 'Xauthority');
  const family = Buffer.alloc(2);
  family.writeUInt16BE(FAMILY_WILD);
  const empty = Buffer.alloc(0);
  const entry = [
    family,
    countedField(empty),
    countedField(empty),
    countedField(Buffer.from(MIT_COOKIE, 'latin1')),
    countedField(randomBytes(COOKIE_BYTES)),
  ];
  writeFileSync(file, Buffer.concat(entry), { mode: 0o600, flag: 'wx' });
  return { dir, file };
};
