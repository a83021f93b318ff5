import { regulatoryGroup, SOURCE_GROUPS, sourceTitle } from '../../contract/source-catalogue';
import type { Categories, Source } from '../../contract/sources';

type Category = Categories['results'][number];

/**
 * GET /categories: the sources a user may see, by category: the capital-markets groups of the
 * catalogue (000 §3) first, in the catalogue's order, then other groups (built-in demo
 * content), then the user's own feeds and websites by category tab ("News & Blogs").
 */
export function categoriesOf(sources: Source[], product: string): Category[] {
  const byKey = new Map<string, Category>();
  const add = (key: string, label: string, group: string | null, source: Source) => {
    let category = byKey.get(key);
    if (!category) byKey.set(key, (category = { key, label, group, sources: [] }));
    category.sources.push(source);
  };
  for (const source of sources) {
    const regulatory = regulatoryGroup(source.key);
    if (regulatory) {
      const title = SOURCE_GROUPS[regulatory].title;
      add(regulatory, title, title, source);
    } else if (source.group) {
      add(
        source.group.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
        source.group,
        source.group,
        source,
      );
    } else {
      add(source.category_tab, sourceTitle(source.category_tab, product), null, source);
    }
  }
  const order = Object.keys(SOURCE_GROUPS);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return [...byKey.values()].sort(
    (a, b) => rank(a.key) - rank(b.key) || a.label.localeCompare(b.label),
  );
}
