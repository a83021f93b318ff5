/**
 * Getters of the feed library's objects made to compute once per object. The library rebuilds
 * what a getter answers on every read (an element's children are new objects each time; an
 * item's fallback to the feed's link, categories or image scans the whole channel again), so
 * a 10k-item feed read as is would take minutes. A parsed feed never changes, so a value can
 * be kept after its first read.
 *
 * The values are kept in one map per object, under one symbol, by a getter put once on the
 * prototype that defines it: every object of a class keeps one hidden class. (Defining an own
 * getter on each object, a new closure each time, gave every object hidden classes of its
 * own, which V8 allocates in the old generation: about 3 KB of old-space garbage per item, so
 * a big feed grew the heap by a hundred megabytes before the collector ran.) Objects that were
 * not asked to keep (`keepValues`) read through to the library's getter unchanged.
 */

const KEPT = Symbol('values kept after their first read');

type Keeping = { [KEPT]?: Map<() => unknown, unknown> };

/** The getters already wrapped, by the prototype that defines them. */
const wrapped = new WeakMap<object, Set<string>>();

/** Wraps the getter `name` defined on `proto` (once) so that a keeping object keeps its value. */
const wrapGetter = (proto: object, name: string, desc: PropertyDescriptor) => {
  let names = wrapped.get(proto);
  if (!names) wrapped.set(proto, (names = new Set()));
  if (names.has(name) || !desc.get) return;
  names.add(name);
  // Keyed by the library's getter itself: a subclass's getter that reads `super.x` keeps its
  // own value apart from the one it read.
  const get = desc.get as () => unknown;
  Object.defineProperty(proto, name, {
    configurable: true,
    enumerable: desc.enumerable,
    get(this: Keeping) {
      const kept = this[KEPT];
      if (!kept) return get.call(this);
      if (kept.has(get)) return kept.get(get);
      const value = get.call(this);
      kept.set(get, value);
      return value;
    },
  });
};

/**
 * Makes `obj` keep the values of its getters `names` (all of them when omitted) after their
 * first read. Answers `obj`. A getter is wrapped for its whole class, so an object that keeps
 * also keeps any other getter some object of its class was asked to keep: harmless for a
 * parsed feed, which never changes.
 */
export const keepValues = <T extends object>(obj: T, names?: readonly string[]): T => {
  const own = Object.getPrototypeOf(obj) as object | null;
  const which = names?.join(' ') ?? '*';
  let done = prepared.get(own ?? Object.prototype);
  if (!done) prepared.set(own ?? Object.prototype, (done = new Set()));
  if (!done.has(which)) {
    done.add(which);
    for (
      let proto = own;
      proto && proto !== Object.prototype;
      proto = Object.getPrototypeOf(proto) as object | null
    ) {
      for (const [name, desc] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
        if (desc.get && (!names || names.includes(name))) wrapGetter(proto, name, desc);
      }
    }
  }
  (obj as Keeping)[KEPT] ??= new Map();
  return obj;
};

/** The getter sets already wrapped for objects of a prototype (`*`: all of its getters). */
const prepared = new WeakMap<object, Set<string>>();
