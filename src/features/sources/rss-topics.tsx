import { useEffect, useState } from 'react';
import type { OpOutput } from '../../../contract/worker-api';
import { useShell } from '../../shell-context';
import { SourceRows } from './source-rows';
import { useFollowedSources } from './use-sources';

type Topics = OpOutput<'sources.topics'>['results'];

/** Suggested feeds by topic (sources.topics), each followable in one click. */
export function RssTopics() {
  const { client } = useShell();
  const [topics, setTopics] = useState<Topics | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () =>
      client.call('sources.topics', {}).then(
        (answer) => alive && setTopics(answer.results),
        () => alive && setTopics((was) => was ?? []),
      );
    void load();
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && event.store === 'sources') void load();
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client]);

  const followed = useFollowedSources();
  const keys = new Map((followed ?? []).map((s) => [s.key, s]));
  // The topics answer is cached (60 s): the user's own follows, changed at once, win.
  const shown = (topics ?? [])
    .filter((t) => t.sources.length > 0)
    .map((t) => ({
      ...t,
      sources: t.sources.map((s) => keys.get(s.key) ?? (followed ? { ...s, followed: false } : s)),
    }));
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="rss-topics">
      <h2 id="rss-topics">Suggested feeds by topic</h2>
      {shown.map((topic) => (
        <details key={topic.topic} className="topic">
          <summary>
            {topic.label} <span className="muted">({topic.sources.length})</span>
          </summary>
          <SourceRows sources={topic.sources} label={topic.label} />
        </details>
      ))}
    </section>
  );
}
