import { measureIngestThroughput } from './server/ingest/throughput';
console.log(await measureIngestThroughput({ items: 10000 }));
console.log(await measureIngestThroughput({ items: 10000, pglite: true }));
