import type { Variant } from '../../contract';
import { FEED_HOME_SUFFIXES, ROUTES, routesFor, type FeedHomeSuffix } from './routes';
import { variantBase } from './variant';

type Flags = Record<string, boolean>;

/**
 * The source families of "my data", in the order the landing rule tries them (000 §2: "the
 * route depends on the first enabled source family"). The spec does not name the families'
 * flags; ours are the /feeds/home suffixes themselves. With my_data on and none of them on,
 * the user lands on the whole of their data, /feeds/home. The spec gives the families no order;
 * we try them in the order it lists the suffixes, so the one suffix list serves both.
 */
export const MY_DATA_FAMILIES: readonly FeedHomeSuffix[] = FEED_HOME_SUFFIXES;

/** The landing order after my_data (000 §2): flag -> route. */
function landingOrder(product: string): Array<[flag: string, route: string]> {
  const r = routesFor(product);
  return [
    ['search', r.search.root],
    ['bookmarks', r.needlbox.bookmarks],
    ['tags', r.needlbox.tags],
    ['comments', r.needlbox.comments],
    ['assistants', r.managers.assistantsDashboard],
    ['report_generation', r.managers.reportGenerationDashboard],
    [`${product}_report`, r.report.root],
    [`ask_${product}_full_screen`, r.assistant.full],
  ];
}

/** Where my data opens: the first enabled family's feed, else the whole home feed. */
export function myDataRoute(flags: Flags, product: string): string {
  const r = routesFor(product);
  const family = MY_DATA_FAMILIES.find((f) => flags[f] === true);
  return family ? r.feeds.homeSuffix(family) : r.feeds.home;
}

/**
 * The general landing route: the first enabled feature of my_data, search, bookmarks, tags,
 * comments, assistants, report_generation, {product}_report, ask_{product}_full_screen; with
 * none of them, /home.
 */
export function landingRoute(flags: Flags, product: string): string {
  if (flags.my_data === true) return myDataRoute(flags, product);
  const hit = landingOrder(product).find(([flag]) => flags[flag] === true);
  return hit ? hit[1] : routesFor(product).home;
}

/**
 * After sign-in each variant goes to its own base (000 §2): pulse to its user settings, the
 * main app to the landing route, the others to their base path.
 */
export function afterSignInRoute(variant: Variant, flags: Flags, product: string): string {
  if (variant === 'pulse') return routesFor(product).pulse.userSettings;
  if (variant === 'main') return landingRoute(flags, product);
  return variantBase(variant);
}

/** After sign-out: pulse to the pulse sign-in, every other variant to /auth/signin. */
export function afterSignOutRoute(variant: Variant): string {
  return variant === 'pulse' ? ROUTES.pulse.signIn : ROUTES.auth.signIn;
}
