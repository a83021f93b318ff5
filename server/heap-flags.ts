import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for the server process, set before anything else is loaded (server/main.ts
 * imports this first).
 *
 * No allocation-site pretenuring. V8 watches where objects are made, and once most of those it
 * finds alive at a young-generation collection come from one place, it allocates everything
 * from there straight into the old generation, which only a full collection clears. Ingesting a
 * feed builds trees (a piece's parsed XML, each item's sanitised HTML, a batch's rows) that
 * are all alive while they are built, so their sites were judged long-lived: every later
 * piece's garbage went to the old generation, which V8 lets grow to about four times what is
 * live before collecting it. Following a 10 MB feed took the server 143 MB above idle with
 * pretenuring and 119 MB without (bench/follow-memory.ts; issue 17's bound is 150 MB). The
 * server's long-lived data (caches, open sessions) is small, so what pretenuring would save
 * (copying it once more) is little.
 */
setFlagsFromString('--no-allocation-site-pretenuring');

/**
 * The old generation grows by at most half of what is live before its next full collection,
 * instead of V8's default of up to four times (chosen by how fast the program allocates, so a
 * fast machine following a big feed grew the most). A feed's pieces are garbage as soon as they
 * are stored: without this, following a 10 MB feed on a quiet machine took the server 164-176
 * MB above idle; with it, 54-55 MB, and all 33,259 items were stored in 16-20 s
 * (bench/follow-memory.ts, whose goal is 150 MB).
 * Full collections come more often, each short, since what the server keeps alive is small.
 */
setFlagsFromString('--heap-growing-percent=50');
