/**
 * Elements as a toolkit publishes them, for the pure tests of the brain's element checks: a
 * window and its children, showing, every state off but `sensitive`.
 */
import type { Element } from '../../src/desktop/types.ts';
import type { Region } from '../../src/domain.ts';

export const SHOWING = {
  focused: false,
  checked: false,
  sensitive: true,
  showing: true,
  editable: false,
  selected: false,
  expanded: false,
};

/** The top-level window `w` of the tree. */
export const treeWindow = (width: number, height: number): Element => ({
  ref: 'w',
  role: 'window',
  toolkitRole: 'frame',
  name: 'Order',
  description: '',
  states: SHOWING,
  box: { x: 0, y: 0, width, height },
  index: 0,
  depth: 0,
});

/** A child of the window `w`, its toolkit role its role. */
export const treeChild = (ref: string, role: string, name: string, index: number, box: Region, extra: Partial<Element> = {}): Element => ({
  ref,
  role,
  toolkitRole: role,
  name,
  description: '',
  states: SHOWING,
  box,
  parent: 'w',
  index,
  depth: 1,
  ...extra,
});
