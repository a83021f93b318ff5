/**
 * The catalogue (not a server domain of its own: the sources domain serves it): the `sources`
 * and `source_follows` tables (tables.ts), the presets and built-ins written on every start
 * (catalogue.ts), and what a user may see of them (queries.ts `visibleSources`). Below feeds,
 * search and the assistant, which read it; above ingestion, whose status and presets it shows.
 */
import './tables';
export { BUILTIN_SOURCES, ensureCatalogue, topicOfKey, TOPICS } from './catalogue';
export { allVisible, findVisible, followedRows, sourceFor, toSources } from './queries';
