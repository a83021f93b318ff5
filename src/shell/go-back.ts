import { BACK_FALLBACK_MS } from '../../contract/constants';

type BackWindow = Pick<Window, 'history' | 'location' | 'setTimeout'> & {
  /** Present inside the native (Android) wrapper, which handles back itself. */
  ReactNativeWebView?: { postMessage(message: string): void };
};

/** Back navigation (000 §4): history back, and "/" if nothing happened within 200 ms. */
export function goBack(win: BackWindow = window): void {
  if (win.ReactNativeWebView) {
    win.ReactNativeWebView.postMessage(JSON.stringify({ type: 'back' }));
    return;
  }
  const before = win.location.href;
  win.history.back();
  win.setTimeout(() => {
    if (win.location.href === before) win.location.assign('/');
  }, BACK_FALLBACK_MS);
}
