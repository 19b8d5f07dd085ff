/**
 * The topological index used to break ties between deferred components.
 *
 * Components are grouped into strongly connected components (every member of one cycle shares an index);
 * the groups are ordered topologically, lexicographically by their smallest member name where the graph
 * leaves a choice. On a DAG this is the lexicographic topological sort. Computed once per graph change,
 * not per run.
 */
export function topologicalIndex(
  names: readonly string[],
  successors: (name: string) => Iterable<string>,
): Map<string, number> {
  const groups = stronglyConnectedGroups(names, successors);
  const groupOf = new Map<string, number>();
  groups.forEach((members, index) => {
    for (const member of members) groupOf.set(member, index);
  });
  const keys = groups.map((members) => [...members].sort()[0]!);
  const indegree = new Array<number>(groups.length).fill(0);
  const next: Set<number>[] = groups.map(() => new Set<number>());
  for (const name of names) {
    const from = groupOf.get(name)!;
    for (const successor of successors(name)) {
      const to = groupOf.get(successor);
      if (to === undefined || to === from || next[from]!.has(to)) continue;
      next[from]!.add(to);
      indegree[to]! += 1;
    }
  }
  const heap = new MinHeap((a: number, b: number) =>
    keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0,
  );
  indegree.forEach((degree, group) => {
    if (degree === 0) heap.push(group);
  });
  const order = new Array<number>(groups.length);
  let position = 0;
  for (let group = heap.pop(); group !== undefined; group = heap.pop()) {
    order[group] = position;
    position += 1;
    for (const to of next[group]!) {
      indegree[to]! -= 1;
      if (indegree[to] === 0) heap.push(to);
    }
  }
  const index = new Map<string, number>();
  for (const [name, group] of groupOf) index.set(name, order[group]!);
  return index;
}

/** Tarjan's algorithm, iterative; returns the groups (each a list of names). */
function stronglyConnectedGroups(
  names: readonly string[],
  successors: (name: string) => Iterable<string>,
): string[][] {
  const indexOf = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  for (const root of names) {
    if (indexOf.has(root)) continue;
    const work: { name: string; iterator: Iterator<string> }[] = [];
    const enter = (name: string) => {
      indexOf.set(name, counter);
      lowLink.set(name, counter);
      counter += 1;
      stack.push(name);
      onStack.add(name);
      work.push({ name, iterator: successors(name)[Symbol.iterator]() });
    };
    enter(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const step = frame.iterator.next();
      if (!step.done) {
        const successor = step.value;
        if (!indexOf.has(successor)) enter(successor);
        else if (onStack.has(successor)) {
          lowLink.set(frame.name, Math.min(lowLink.get(frame.name)!, indexOf.get(successor)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) {
        lowLink.set(parent.name, Math.min(lowLink.get(parent.name)!, lowLink.get(frame.name)!));
      }
      if (lowLink.get(frame.name) === indexOf.get(frame.name)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.name);
        groups.push(group);
      }
    }
  }
  return groups;
}

/** A small binary min-heap. */
class MinHeap<T> {
  readonly #items: T[] = [];
  constructor(private readonly compare: (a: T, b: T) => number) {}

  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.compare(items[index]!, items[parent]!) >= 0) break;
      [items[index], items[parent]] = [items[parent]!, items[index]!];
      index = parent;
    }
  }

  pop(): T | undefined {
    const items = this.#items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let index = 0;
      for (;;) {
        const left = index * 2 + 1;
        const right = left + 1;
        let smallest = index;
        if (left < items.length && this.compare(items[left]!, items[smallest]!) < 0) smallest = left;
        if (right < items.length && this.compare(items[right]!, items[smallest]!) < 0) smallest = right;
        if (smallest === index) break;
        [items[index], items[smallest]] = [items[smallest]!, items[index]!];
        index = smallest;
      }
    }
    return top;
  }
}
