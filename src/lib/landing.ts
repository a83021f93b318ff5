import {
  LANDING_FEATURES,
  landingFlag,
  MY_DATA_FLAG,
  SOURCE_FAMILIES,
  type LandingFeature,
  type Variant,
} from '../../contract';
import { ROUTES, routesFor } from './routes';
import { variantBase } from './variant';

type Flags = Record<string, boolean>;
type Routes = ReturnType<typeof routesFor>;

/**
 * The source families of "my data", in the order the landing rule tries them (000 §2: "the
 * route depends on the first enabled source family"); each family's flag is its /feeds/home
 * suffix. With my_data on and none of them on, the user lands on the whole of their data,
 * /feeds/home.
 */
export const MY_DATA_FAMILIES = SOURCE_FAMILIES;

/** Where each landing feature opens; the contract holds the features' order and flags. */
const LANDING_ROUTES: Record<LandingFeature, (r: Routes) => string> = {
  search: (r) => r.search.root,
  bookmarks: (r) => r.needlbox.bookmarks,
  tags: (r) => r.needlbox.tags,
  comments: (r) => r.needlbox.comments,
  assistants: (r) => r.managers.assistantsDashboard,
  report_generation: (r) => r.managers.reportGenerationDashboard,
  report: (r) => r.report.root,
  ask_full_screen: (r) => r.assistant.full,
};

/** The landing order after my_data (000 §2): flag -> route. */
function landingOrder(product: string): Array<[flag: string, route: string]> {
  const r = routesFor(product);
  return LANDING_FEATURES.map((feature) => [
    landingFlag(feature, product),
    LANDING_ROUTES[feature](r),
  ]);
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
  if (flags[MY_DATA_FLAG] === true) return myDataRoute(flags, product);
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
