/**
 * The navigation graph: screen states are nodes, identified by fingerprint (no model call);
 * recorded paths are edges from the state where they start to the state where they end.
 * With `restart: spec`, a goal that does not start where its path starts is first navigated
 * there along learned edges.
 */
import type { Path } from '../domain.ts';
import { fingerprintDistance } from '../vision/fingerprint.ts';
import { GRAPH_LIMITS } from './thresholds.ts';

export interface Edge {
  readonly goal: string;
  readonly from: string;
  readonly to: string;
  readonly path: Path;
}

export class NavigationGraph {
  private readonly nodes: string[] = [];
  readonly edges: readonly Edge[];

  constructor(paths: readonly Path[]) {
    const edges: Edge[] = [];
    for (const path of paths) {
      const first = path.actions[0];
      const last = path.actions[path.actions.length - 1];
      if (!first || !last) continue;
      edges.push({ goal: path.goal, from: this.node(first.before), to: this.node(last.after), path });
    }
    this.edges = edges;
  }

  /** The known node a fingerprint belongs to, adding it when it is new. */
  private node(fingerprint: string): string {
    const known = this.locate(fingerprint);
    if (known) return known;
    this.nodes.push(fingerprint);
    return fingerprint;
  }

  /** Which known state the screen is in, if any. */
  locate(fingerprint: string): string | undefined {
    let best: { node: string; distance: number } | undefined;
    for (const node of this.nodes) {
      const distance = fingerprintDistance(node, fingerprint);
      if (distance <= GRAPH_LIMITS.sameStateDistance && (!best || distance < best.distance)) best = { node, distance };
    }
    return best?.node;
  }

  /** The shortest chain of edges from the state `from` to the state `to` (breadth first). */
  route(from: string, to: string): Edge[] | undefined {
    const start = this.locate(from);
    const goal = this.locate(to);
    if (!start || !goal) return undefined;
    if (start === goal) return [];
    const previous = new Map<string, Edge>();
    const queue = [start];
    const seen = new Set([start]);
    while (queue.length > 0) {
      const node = queue.shift() as string;
      for (const edge of this.edges) {
        if (edge.from !== node || seen.has(edge.to)) continue;
        seen.add(edge.to);
        previous.set(edge.to, edge);
        if (edge.to === goal) {
          const chain: Edge[] = [];
          for (let at = goal; at !== start; ) {
            const step = previous.get(at) as Edge;
            chain.unshift(step);
            at = step.from;
          }
          return chain;
        }
        queue.push(edge.to);
      }
    }
    return undefined;
  }
}
