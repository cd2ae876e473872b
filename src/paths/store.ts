/**
 * Path storage. A path file is stable text committed to git; its images are content-addressed
 * PNGs in `<goal>.assets/`, so identical images keep identical names across relearns.
 *
 * Write order keeps every state valid when a process is killed at any point:
 * new assets first (new names never overwrite old ones), then the JSON by atomic rename,
 * then removal of assets no path file references any more.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { createHash } from 'node:crypto';
import type { Path } from '../domain.ts';
import { writeFileAtomic, isAtomicTempFile, makeDirs } from './atomic.ts';
import { withLock } from './lock.ts';
import { pathLocation, type PathLocation } from './location.ts';
import { ASSET_NAME } from './path-shape.ts';
import { lineOfPathValue, parsePathFile, pathImages } from './validate.ts';
import { InvalidInputError } from '../errors.ts';

/** Images of a path being written, keyed by their asset name. */
export type AssetMap = ReadonlyMap<string, Uint8Array>;

export const assetName = (png: Uint8Array): string => `${createHash('sha256').update(png).digest('hex').slice(0, 16)}.png`;

/** Stable text: two-space JSON with a trailing newline, keys in the order learning built them. */
export const serializePath = (path: Path): string => `${JSON.stringify(path, null, 2)}\n`;

const referencedAssets = (path: Path): Set<string> => new Set(pathImages(path).map((i) => i.name));

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** True when `file` exists and starts like a PNG image. */
function isPngFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(PNG_SIGNATURE.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(PNG_SIGNATURE);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export class PathStore {
  constructor(
    /** The `paths/` directory. */
    readonly dir: string,
  ) {}

  locate(specId: string, goalId: string): PathLocation {
    return pathLocation(this.dir, specId, goalId);
  }

  /** Reads and validates a path, its images included; undefined when none was recorded. */
  read(specId: string, goalId: string): Path | undefined {
    const location = this.locate(specId, goalId);
    return this.readFile(location.file, location.assets);
  }

  /** A hash of the path file's bytes as it stands; null when the goal has no path. */
  fileHash(specId: string, goalId: string): string | null {
    const { file } = this.locate(specId, goalId);
    if (!existsSync(file)) return null;
    return createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);
  }

  readProposal(specId: string, goalId: string): Path | undefined {
    const location = this.locate(specId, goalId);
    return this.readFile(location.proposed, location.assets);
  }

  private readFile(file: string, assets: string): Path | undefined {
    if (!existsSync(file)) return undefined;
    const text = readFileSync(file, 'utf8');
    const shown = this.display(file);
    const path = parsePathFile(shown, text);
    const seen = new Set<string>();
    for (const { name, where } of pathImages(path)) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (!isPngFile(join(assets, name))) {
        throw new InvalidInputError(
          { file: shown, line: lineOfPathValue(text, where) },
          `image ${name} is missing from ${this.display(assets)} or is not a PNG image (delete the path file to learn the goal again)`,
        );
      }
    }
    return path;
  }

  /** An image of a path, as PNG bytes. */
  asset(specId: string, goalId: string, name: string): Uint8Array {
    const file = join(this.locate(specId, goalId).assets, name);
    if (!ASSET_NAME.test(name) || !existsSync(file)) {
      throw new InvalidInputError(
        { file: this.display(file) },
        'image referenced by the path file is missing (delete the path to learn the goal again)',
      );
    }
    return readFileSync(file);
  }

  /** Saves a path (learned or scripted) over the previous one. */
  async write(path: Path, assets: AssetMap): Promise<void> {
    const location = this.locate(path.spec, path.goal);
    await this.save(location, location.file, path, assets);
  }

  /** Saves a healed path beside the original, never over it. */
  async propose(path: Path, assets: AssetMap): Promise<void> {
    const location = this.locate(path.spec, path.goal);
    await this.save(location, location.proposed, path, assets);
  }

  /** Accepts a proposal: it replaces the path. Returns false when there is none. */
  async accept(specId: string, goalId: string): Promise<boolean> {
    const location = this.locate(specId, goalId);
    return withLock(location.file, () => {
      const proposal = this.readFile(location.proposed, location.assets);
      if (!proposal) return false;
      writeFileAtomic(location.file, serializePath(proposal));
      rmSync(location.proposed, { force: true });
      this.collectGarbage(location);
      return true;
    });
  }

  /** Drops a proposal. Returns false when there is none. */
  async reject(specId: string, goalId: string): Promise<boolean> {
    const location = this.locate(specId, goalId);
    return withLock(location.file, () => {
      if (!existsSync(location.proposed)) return false;
      rmSync(location.proposed, { force: true });
      this.collectGarbage(location);
      return true;
    });
  }

  private async save(location: PathLocation, target: string, path: Path, assets: AssetMap): Promise<void> {
    await withLock(location.file, () => {
      makeDirs(location.assets);
      for (const [name, png] of assets) {
        const file = join(location.assets, name);
        // Content-addressed: an existing file already holds these bytes.
        if (!existsSync(file)) writeFileAtomic(file, png);
      }
      writeFileAtomic(target, serializePath(path));
      this.collectGarbage(location);
    });
  }

  /** Removes images no path file of the goal references, and temp files of killed writers. */
  private collectGarbage(location: PathLocation): void {
    // Under the goal's lock, a temp file of its path files can only be a killed writer's.
    const dir = dirname(location.file);
    const own = [basename(location.file), basename(location.proposed)].map((name) => `.${name}.`);
    for (const name of readdirSync(dir)) {
      if (isAtomicTempFile(name) && own.some((prefix) => name.startsWith(prefix))) rmSync(join(dir, name), { force: true });
    }
    if (!existsSync(location.assets)) return;
    const keep = new Set<string>();
    for (const file of [location.file, location.proposed]) {
      if (!existsSync(file)) continue;
      for (const name of referencedAssets(parsePathFile(file, readFileSync(file, 'utf8')))) keep.add(name);
    }
    for (const name of readdirSync(location.assets)) {
      if (!keep.has(name) || isAtomicTempFile(name)) rmSync(join(location.assets, name), { force: true });
    }
    if (readdirSync(location.assets).length === 0) rmSync(location.assets, { recursive: true, force: true });
  }

  private display(file: string): string {
    const rel = relative(process.cwd(), file);
    return rel.startsWith('..') ? file : rel;
  }

  /** Every recorded path under the store, as spec id + goal id (for `retrace paths`). */
  list(): { readonly specDir: string; readonly goal: string; readonly proposed: boolean }[] {
    const found: { specDir: string; goal: string; proposed: boolean }[] = [];
    const walk = (dir: string): void => {
      if (!existsSync(dir)) return;
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name);
        if (entry.isDirectory() && !entry.name.endsWith('.assets')) walk(full);
        else if (entry.name.endsWith('.path.json') && !entry.name.endsWith('.proposed.path.json')) {
          const goal = entry.name.slice(0, -'.path.json'.length);
          found.push({
            specDir: relative(this.dir, dir).split('\\').join('/'),
            goal,
            proposed: existsSync(join(dir, `${goal}.proposed.path.json`)),
          });
        }
      }
    };
    walk(this.dir);
    return found.sort((a, b) => `${a.specDir}/${a.goal}`.localeCompare(`${b.specDir}/${b.goal}`));
  }
}
