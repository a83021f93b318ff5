import { useEffect, useState } from 'react';

/** The loading text of feed creation: every 2000 ms, staying on the last (002 §2). */
const FEED_LOADING_TEXTS = [
  'Analyzing Your Inputs',
  'Building Context',
  'Tailoring Recommendations',
  'Applying Final Touches',
] as const;
const FEED_LOADING_STEP_MS = 2000;

/**
 * The loading text while a feed is being created (002 §2): a new message every 2000 ms,
 * staying on the last. Null while nothing is being created.
 */
export function useFeedLoadingText(active: boolean): string | null {
  const [step, setStep] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => {
      setStep((n) => Math.min(n + 1, FEED_LOADING_TEXTS.length - 1));
    }, FEED_LOADING_STEP_MS);
    return () => {
      clearInterval(timer);
      // The next creation starts from the first message.
      setStep(0);
    };
  }, [active]);
  return active ? FEED_LOADING_TEXTS[step] : null;
}
