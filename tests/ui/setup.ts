// Files about rules and lists without a DOM say `// @vitest-environment node` (no jsdom to load
// per file, the largest part of a small file's time); the stand-ins below are for jsdom.
if (typeof window !== 'undefined') {
  // jsdom does not implement scrolling; the router restores scroll on navigation.
  window.scrollTo = () => {};

  // jsdom has <dialog> and its `open` attribute but none of its methods. These stand-ins do what
  // the UI relies on: showModal/show open it, close closes it and fires 'close'. (The modal's
  // inert page behind is the browser's part; the e2e suite covers it in Chromium.)
  const dialogProto = HTMLDialogElement.prototype as Partial<HTMLDialogElement>;
  if (typeof dialogProto.showModal !== 'function') {
    dialogProto.showModal = function showModal(this: HTMLDialogElement) {
      if (this.open) throw new DOMException('The dialog is already open', 'InvalidStateError');
      this.open = true;
    };
    dialogProto.show = function show(this: HTMLDialogElement) {
      this.open = true;
    };
    dialogProto.close = function close(this: HTMLDialogElement, returnValue?: string) {
      if (!this.open) return;
      if (returnValue !== undefined) this.returnValue = returnValue;
      this.open = false;
      this.dispatchEvent(new Event('close'));
    };
  }

  // react-hot-toast asks for the reduced-motion preference; jsdom has no matchMedia.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;

  // findBy/waitFor wait for a condition, not a duration: give them room on a busy 2-core machine
  // (two test files run at once), so a slow first render is not a failure.
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5000 });
}

// A module (for the top-level await above).
export {};
