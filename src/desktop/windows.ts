/**
 * Top-level windows of an X display, through xdotool and xwininfo, and — for what is asked on
 * every action (a window's place, title and pid) — the display's own protocol.
 *
 * Works without a window manager (retrace's own Xvfb runs none): focus is given with
 * XSetInputFocus (`xdotool windowfocus`), not `windowactivate`, which needs a WM. With a WM
 * the client windows sit inside unnamed frames; a "top-level" window is therefore a viewable
 * named window none of whose ancestors (below the root) is named.
 */
import { InfrastructureError } from '../errors.ts';
import { runTool, type ToolResult } from './exec-tool.ts';
import { pollUntil } from './poll.ts';
import type { Display, WindowInfo, WindowSystem } from './types.ts';
import { connectionTo, type XConnection } from './x11/connection.ts';
import { XProtocolError } from './x11/x-errors.ts';

export interface XWindowOptions {
  /** How long focus() waits for the window to hold focus. @default 2000 */
  readonly focusTimeoutMs?: number;
}

interface TreeNode {
  readonly id: number;
  readonly named: boolean;
  readonly parent: number | undefined;
}

/**
 * One window line of `xwininfo -tree`: indentation, id, then `"name": (class)` or
 * `(has no name): ()` (or `(name in unsupported encoding …)`). Not "3 children." lines.
 */
const TREE_LINE = /^(\s+)(\d+) ([("].*)$/;

/** Parses `xwininfo -root -tree -int` into nodes keyed by id, with their parents. */
export const parseTree = (text: string): Map<number, TreeNode> => {
  const nodes = new Map<number, TreeNode>();
  // The stack holds [indent, id] of the open ancestors; the root is at indent -1.
  const rootMatch = /Window id: (\d+) \(the root window\)/.exec(text);
  const stack: Array<[number, number]> = rootMatch?.[1] ? [[-1, Number(rootMatch[1])]] : [];
  for (const line of text.split('\n')) {
    const match = TREE_LINE.exec(line);
    if (match?.[1] === undefined || match[2] === undefined || match[3] === undefined) continue;
    const indent = match[1].length;
    const id = Number(match[2]);
    while (stack.length > 0 && (stack[stack.length - 1] as [number, number])[0] >= indent) stack.pop();
    const parent = stack[stack.length - 1]?.[1];
    nodes.set(id, { id, named: !match[3].startsWith('(has no name)'), parent });
    stack.push([indent, id]);
  }
  return nodes;
};

/** Named windows with no named ancestor below the root: the clients, with or without a WM. */
const topLevelIds = (nodes: Map<number, TreeNode>, rootId: number | undefined): number[] => {
  const result: number[] = [];
  for (const node of nodes.values()) {
    if (!node.named) continue;
    let ancestor = node.parent;
    let nested = false;
    while (ancestor !== undefined && ancestor !== rootId) {
      const up = nodes.get(ancestor);
      if (up === undefined) break;
      if (up.named) {
        nested = true;
        break;
      }
      ancestor = up.parent;
    }
    if (!nested) result.push(node.id);
  }
  return result;
};

const VANISHED_WINDOW = /Bad (Window|Drawable)/;
const TREE_RETRIES = 5;

const field = (text: string, name: string): number | undefined => {
  const match = new RegExp(`${name}:\\s+(-?\\d+)`).exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
};

export class XWindowSystem implements WindowSystem {
  private readonly focusTimeoutMs: number;
  /** One X connection for the requests the tools cannot make. */
  private readonly connection: () => Promise<XConnection>;

  constructor(
    private readonly display: Display,
    options: XWindowOptions = {},
  ) {
    this.focusTimeoutMs = options.focusTimeoutMs ?? 2_000;
    this.connection = connectionTo(display.name, display.env);
  }

  async list(): Promise<WindowInfo[]> {
    const { nodes, rootId } = await this.tree();
    const infos = await Promise.all(topLevelIds(nodes, rootId).map((id) => this.get(id)));
    return infos.filter((info): info is WindowInfo => info !== undefined);
  }

  /** The window, if it exists and is viewable. */
  async get(id: number): Promise<WindowInfo | undefined> {
    // `xwininfo -id 0` would wait for a click on a window to pick.
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    this.display.assertAlive();
    const x = await this.connection().catch(() => undefined);
    return x === undefined ? this.getByTools(id) : this.getByProtocol(x, id);
  }

  private async getByProtocol(x: XConnection, id: number): Promise<WindowInfo | undefined> {
    try {
      const [viewable, region, title, pid] = await Promise.all([
        x.viewable(id),
        x.rootArea(id),
        this.title(x, id),
        x.property(id, '_NET_WM_PID', 4),
      ]);
      if (!viewable) return undefined;
      // As xdotool's getwindowpid: a window without _NET_WM_PID has no pid.
      return pid.format === 32 && pid.value.length >= 4 ? { id, title, region, pid: pid.value.readUInt32LE(0) } : { id, title, region };
    } catch (error) {
      // BadWindow: the window is gone (closed, or its app exited).
      if (error instanceof XProtocolError && error.xCode !== undefined) return undefined;
      this.display.assertAlive();
      throw error;
    }
  }

  /** As xdotool's getwindowname: _NET_WM_NAME, else WM_NAME, as UTF-8. */
  private async title(x: XConnection, id: number): Promise<string> {
    const ewmh = await x.property(id, '_NET_WM_NAME');
    const name = ewmh.value.length > 0 ? ewmh : await x.property(id, 'WM_NAME');
    return name.format === 8 ? name.value.toString('utf8') : '';
  }

  private async getByTools(id: number): Promise<WindowInfo | undefined> {
    const [geometry, namePid] = await Promise.all([
      this.tool('xwininfo', ['-id', String(id), '-int']),
      this.tool('xdotool', ['getwindowname', String(id), 'getwindowpid', String(id)]),
    ]);
    if (geometry.code !== 0 || !/Map State:\s+IsViewable/.test(geometry.stdout)) return undefined;
    const x = field(geometry.stdout, 'Absolute upper-left X');
    const y = field(geometry.stdout, 'Absolute upper-left Y');
    const width = field(geometry.stdout, 'Width');
    const height = field(geometry.stdout, 'Height');
    const border = field(geometry.stdout, 'Border width') ?? 0;
    if (x === undefined || y === undefined || width === undefined || height === undefined) {
      return undefined;
    }
    // getwindowname prints the title and a newline, then getwindowpid the pid, if the window
    // has one (_NET_WM_PID); without one xdotool stops with a non-zero exit after the title.
    const lines = namePid.stdout.replace(/\n$/, '').split('\n');
    let pid: number | undefined;
    if (namePid.code === 0 && lines.length >= 2 && /^\d+$/.test(lines[lines.length - 1] ?? '')) {
      pid = Number(lines.pop());
    }
    const title = lines.join('\n');
    // xwininfo's absolute corner is the outside of the border; the content starts inside it.
    const region = { x: x + border, y: y + border, width, height };
    return pid === undefined ? { id, title, region } : { id, title, region, pid };
  }

  async focus(id: number): Promise<void> {
    // Asked again on every attempt: an app that is still mapping may move focus itself.
    const focused = await pollUntil(
      async () => {
        await this.xdotool(['windowraise', String(id), 'windowfocus', String(id)], id);
        return (await this.focusedId()) === id ? true : undefined;
      },
      { timeoutMs: this.focusTimeoutMs, intervalMs: 10 },
    );
    if (focused === undefined) {
      const info = await this.get(id);
      throw new InfrastructureError(
        'WINDOW_TIMEOUT',
        `Window ${id}${info ? ` "${info.title}"` : ' (gone)'} did not take input focus within ` + `${this.focusTimeoutMs} ms.`,
      );
    }
  }

  async resize(id: number, width: number, height: number): Promise<void> {
    await this.xdotool(['windowsize', String(id), String(Math.round(width)), String(Math.round(height))], id);
  }

  async move(id: number, x: number, y: number): Promise<void> {
    await this.xdotool(['windowmove', String(id), String(Math.round(x)), String(Math.round(y))], id);
  }

  async requestClose(id: number): Promise<boolean> {
    this.display.assertAlive();
    try {
      const x = await this.connection();
      const [protocols, deleteWindow] = await Promise.all([x.property(id, 'WM_PROTOCOLS'), x.atom('WM_DELETE_WINDOW')]);
      const atoms = protocols.format === 32 ? protocols.value : Buffer.alloc(0);
      let offered = false;
      for (let at = 0; at + 4 <= atoms.length; at += 4) offered ||= atoms.readUInt32LE(at) === deleteWindow;
      if (!offered) return false;
      await x.clientMessage(id, 'WM_PROTOCOLS', [deleteWindow, 0]);
      return true;
    } catch {
      // The window is gone (BadWindow), or the display is not local: the caller ends the app.
      return false;
    }
  }

  async focused(): Promise<WindowInfo | undefined> {
    const id = await this.focusedId();
    return id === undefined ? undefined : this.get(id);
  }

  /**
   * The top-level window that holds focus, or contains the window that does. Undefined when
   * focus is on the root or PointerRoot (the state of a fresh display without a WM).
   */
  private async focusedId(): Promise<number | undefined> {
    const result = await this.tool('xdotool', ['getwindowfocus', '-f']);
    const raw = /^(\d+)/.exec(result.stdout)?.[1];
    if (result.code !== 0 || raw === undefined) return undefined;
    const focusId = Number(raw);
    const { nodes, rootId } = await this.tree();
    const tops = new Set(topLevelIds(nodes, rootId));
    for (let id: number | undefined = focusId; id !== undefined && id !== rootId; ) {
      if (tops.has(id)) return id;
      id = nodes.get(id)?.parent;
    }
    return undefined;
  }

  private async tree(): Promise<{ nodes: Map<number, TreeNode>; rootId: number | undefined }> {
    let result = await this.tool('xwininfo', ['-root', '-tree', '-int']);
    // A window destroyed while xwininfo walks the tree (an app starting up creates and drops
    // helper windows) fails the whole walk with BadWindow; the next walk no longer meets it.
    for (let retry = 0; result.code !== 0 && VANISHED_WINDOW.test(result.stderr) && retry < TREE_RETRIES; retry++) {
      result = await this.tool('xwininfo', ['-root', '-tree', '-int']);
    }
    if (result.code !== 0) this.fail('xwininfo -root -tree', result);
    const rootId = /Window id: (\d+) \(the root window\)/.exec(result.stdout)?.[1];
    return { nodes: parseTree(result.stdout), rootId: rootId === undefined ? undefined : Number(rootId) };
  }

  /** Runs an xdotool command on window `id`; a window that is gone is the app's doing. */
  private async xdotool(args: readonly string[], id: number): Promise<void> {
    const result = await this.tool('xdotool', args);
    if (result.code === 0) return;
    this.display.assertAlive();
    if ((await this.get(id)) === undefined) {
      throw new InfrastructureError('APP_EXITED', `Window ${id} is gone (closed, or its app exited): xdotool ${args[0] ?? ''} failed.`);
    }
    this.fail(`xdotool ${args.join(' ')}`, result);
  }

  private tool(command: string, args: readonly string[]): Promise<ToolResult> {
    this.display.assertAlive();
    return runTool(command, args, { env: { ...process.env, ...this.display.env } });
  }

  private fail(what: string, result: ToolResult): never {
    this.display.assertAlive();
    throw new InfrastructureError(
      'DISPLAY_DIED',
      `${what} failed on X display ${this.display.name} (exit ${result.code}): ` + `${result.stderr.trim() || 'no output'}`,
    );
  }
}
