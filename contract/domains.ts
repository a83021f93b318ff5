import { z } from 'zod';
import { assistant } from './assistant';
import { auth } from './auth';
import { boards } from './boards';
import type { DomainContract } from './define';
import { documentFiles } from './document-files';
import { documents } from './documents';
import { extract } from './extract';
import { health } from './health';
import { notebooks } from './notebooks';
import { notifications } from './notifications';
import { people } from './people';
import { search } from './search';
import { sources } from './sources';
import { sync } from './sync';
import { tabs } from './tabs';
import { tags } from './tags';
import { telemetry } from './telemetry';
import { uploadClient } from './upload-client';
import { uploads } from './uploads';
import { user } from './user';

/**
 * Every domain of the contract, registered once: a new domain adds its file and one line here.
 * The endpoint catalogue, the worker's ops, the change entities and the mirror store names are
 * all merged from this list.
 */
export const domains = {
  health,
  tabs,
  auth,
  user,
  notifications,
  telemetry,
  sync,
  documents,
  sources,
  boards,
  search,
  assistant,
  uploads,
  uploadClient,
  documentFiles,
  extract,
  tags,
  people,
  notebooks,
} as const;

type Domain = (typeof domains)[keyof typeof domains];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (
  x: infer I,
) => void
  ? I
  : never;
type Merged<K extends keyof DomainContract> = UnionToIntersection<Domain[K]>;

const merge = <K extends 'endpoints' | 'ops' | 'changes'>(key: K) => {
  const out: Record<string, unknown> = {};
  for (const domain of Object.values(domains) as DomainContract[]) {
    for (const [name, value] of Object.entries(domain[key])) {
      if (Object.hasOwn(out, name)) throw new Error(`contract: ${key} "${name}" is declared twice`);
      out[name] = value;
    }
  }
  return out as Merged<K>;
};

export const allEndpoints = merge('endpoints');
export const allOps = merge('ops');
/** Change entity name to the schema of its `data`. */
export const changeSchemas = merge('changes');

export type ChangeEntity = keyof typeof changeSchemas;
export const ChangeEntity = z.enum(Object.keys(changeSchemas) as [ChangeEntity, ...ChangeEntity[]]);

/** The mirror stores a tab may hear about in a 'changed' event. */
export type StoreName = Domain['stores'][number];
export const StoreName = z.enum(
  (Object.values(domains) as DomainContract[]).flatMap((d) => d.stores) as [
    StoreName,
    ...StoreName[],
  ],
);
