/**
 * An element source in memory for the counter app of fake-desktop.ts: what a toolkit would
 * publish for it (its window, the buttons "Add" and "Reset", the count as a label), read from the
 * app's state at each call, as AT-SPI reads a live app. Options make it lie in the ways a buggy
 * toolkit or app could, so the brain's element checks can be shown to catch it.
 */
import type { AppSession, Element, ElementQuery, ElementSource } from '../../src/desktop/types.ts';
import { matchElements } from '../../src/desktop/index.ts';
import { FakeDesktop, WINDOW, type CounterApp } from './fake-desktop.ts';

export interface FakeElementOptions {
  /** The name the count label publishes for a count. @default String(count) */
  readonly countName?: (count: number) => string;
  /** The app publishes nothing (a Tk app). */
  readonly silent?: boolean;
  /** The first read after the count changed publishes its label with no box (0 × 0), as Chromium relays one out. */
  readonly lagging?: boolean;
}

const STATES = { focused: false, checked: false, sensitive: true, showing: true, editable: false, selected: false, expanded: false };

export class FakeElements implements ElementSource {
  reads = 0;
  /** The count the last read published. */
  private published: number | undefined;

  constructor(
    private readonly app: CounterApp,
    private readonly options: FakeElementOptions = {},
  ) {}

  async read(): Promise<readonly Element[]> {
    this.reads++;
    if (this.options.silent) return [];
    const app = this.app;
    const relaid = this.options.lagging === true && this.published !== undefined && this.published !== app.count;
    this.published = app.count;
    const window: Element = {
      ref: ':1.1/root',
      role: 'window',
      toolkitRole: 'frame',
      name: 'Counter',
      description: '',
      states: STATES,
      box: { x: 0, y: 0, width: WINDOW.width, height: WINDOW.height },
      index: 0,
      depth: 0,
    };
    const child = (ref: string, role: string, toolkitRole: string, name: string, box: Element['box'], index: number): Element => ({
      ref,
      role,
      toolkitRole,
      name,
      description: '',
      states: STATES,
      box,
      parent: window.ref,
      index,
      depth: 1,
    });
    return [
      window,
      ...(app.options.withoutAdd ? [] : [child(':1.1/add', 'button', 'push button', 'Add', app.add, 0)]),
      child(':1.1/reset', 'button', 'push button', 'Reset', app.reset, 1),
      child(
        ':1.1/count',
        'label',
        'label',
        (this.options.countName ?? String)(app.count),
        relaid ? { x: 0, y: 0, width: 0, height: 0 } : app.countBox,
        2,
      ),
      // What covers "Add" is one of the app's windows, published after its main one.
      ...(app.options.covered
        ? [
            {
              ref: ':1.1/over',
              role: 'dialog',
              toolkitRole: 'dialog',
              name: 'Busy',
              description: '',
              states: STATES,
              box: { x: app.add.x - 4, y: app.add.y - 4, width: app.add.width + 8, height: app.add.height + 8 },
              index: 1,
              depth: 0,
            },
          ]
        : []),
    ];
  }

  async find(_app: AppSession, query: ElementQuery): Promise<readonly Element[]> {
    return matchElements(await this.read(), query);
  }

  async refresh(_app: AppSession, element: Element): Promise<Element | undefined> {
    return (await this.read()).find((e) => e.ref === element.ref);
  }

  async status(): Promise<{ up: true; address: string; apps: number }> {
    return { up: true, address: 'fake', apps: 1 };
  }

  close(): void {}
}

/** The fake desktop with an element source: the counter app publishes its widgets. */
export class ElementDesktop extends FakeDesktop {
  readonly elements: FakeElements;

  constructor(app: CounterApp, options: FakeElementOptions = {}) {
    super(app);
    this.elements = new FakeElements(app, options);
  }
}
